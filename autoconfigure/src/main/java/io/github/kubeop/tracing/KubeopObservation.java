/*
 * Copyright 2026 the Kubeop authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.github.kubeop.tracing;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observations Kubeop makes, their names and their tags.
 *
 * @author Kubeop authors
 */
public enum KubeopObservation implements ObservationDocumentation {

	/**
	 * A call of a handler's methods for one key.
	 */
	HANDLER_CALL {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultHandlerCallObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return HandlerCallLowCardinalityKeys.values();
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return HandlerCallHighCardinalityKeys.values();
		}

	},

	/**
	 * A write request {@code KubernetesTemplate} sends: a child of the handler call that
	 * made it.
	 */
	KUBERNETES_WRITE {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultKubernetesWriteObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return WriteLowCardinalityKeys.values();
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return WriteHighCardinalityKeys.values();
		}

	};

	/**
	 * Low-cardinality tags of a handler call: on its span and on its timer.
	 */
	public enum HandlerCallLowCardinalityKeys implements KeyName {

		/**
		 * The handler name.
		 */
		HANDLER {

			@Override
			public String asString() {
				return "kubeop.handler";
			}

		},

		/**
		 * Why the call was made: {@code added}, {@code changed}, {@code deleted},
		 * {@code resync}, {@code owner}, ... (the lower-cased {@code Trigger}).
		 */
		TRIGGER {

			@Override
			public String asString() {
				return "kubeop.trigger";
			}

		},

		/**
		 * {@code first} for a key's first attempt, {@code retry} for the attempts after a
		 * failure or a requeue.
		 */
		ATTEMPT {

			@Override
			public String asString() {
				return "kubeop.attempt";
			}

		},

		/**
		 * How the call ended, as controller-runtime's {@code result} label:
		 * {@code success}, {@code error}, {@code terminal_error}, {@code requeue},
		 * {@code requeue_after}.
		 */
		OUTCOME {

			@Override
			public String asString() {
				return "kubeop.outcome";
			}

		},

		/**
		 * The namespace of the handled object, {@code none} if cluster-scoped.
		 */
		NAMESPACE {

			@Override
			public String asString() {
				return "k8s.namespace.name";
			}

		},

		/**
		 * The kind of the handled object.
		 */
		KIND {

			@Override
			public String asString() {
				return "kubeop.kind";
			}

		}

	}

	/**
	 * High-cardinality tags of a handler call: on its span only.
	 */
	public enum HandlerCallHighCardinalityKeys implements KeyName {

		/**
		 * The key of the handled object, {@code namespace/name}.
		 */
		KEY {

			@Override
			public String asString() {
				return "kubeop.key";
			}

		},

		/**
		 * The attempt number, {@code 1} for the first.
		 */
		ATTEMPT_NUMBER {

			@Override
			public String asString() {
				return "kubeop.attempt.number";
			}

		},

		/**
		 * How long the key waited in the handler's queue before this call, in
		 * milliseconds; absent when not known (the second call of one turn, such as the
		 * add after the delete of an object replaced under its name).
		 */
		QUEUE_WAIT {

			@Override
			public String asString() {
				return "kubeop.queue.wait.ms";
			}

		}

	}

	/**
	 * Low-cardinality tags of a write.
	 */
	public enum WriteLowCardinalityKeys implements KeyName {

		/**
		 * {@code create}, {@code apply}, {@code patch}, {@code update} or {@code delete}.
		 */
		VERB {

			@Override
			public String asString() {
				return "kubeop.verb";
			}

		},

		/**
		 * The resource written, {@code plural.group} ({@code plural} for the core group),
		 * with the subresource ({@code deployments.apps/status}).
		 */
		RESOURCE {

			@Override
			public String asString() {
				return "kubeop.resource";
			}

		},

		/**
		 * The HTTP status code the API server answered, {@code 0} without an answer.
		 */
		STATUS_CODE {

			@Override
			public String asString() {
				return "http.response.status_code";
			}

		},

		/**
		 * The namespace of the written object, {@code none} if cluster-scoped.
		 */
		NAMESPACE {

			@Override
			public String asString() {
				return "k8s.namespace.name";
			}

		}

	}

	/**
	 * High-cardinality tags of a write.
	 */
	public enum WriteHighCardinalityKeys implements KeyName {

		/**
		 * The name of the written object, {@code none} for a collection.
		 */
		NAME {

			@Override
			public String asString() {
				return "kubeop.object.name";
			}

		}

	}

}
