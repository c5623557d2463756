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

import io.github.kubeop.informer.ResourceKind;
import io.github.kubeop.tracing.KubeopObservation.WriteHighCardinalityKeys;
import io.github.kubeop.tracing.KubeopObservation.WriteLowCardinalityKeys;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The default names and tags of a write's observation: named {@code kubeop.write}, its
 * span {@code <verb> <resource>}, such as {@code apply deployments.apps}.
 *
 * @author Kubeop authors
 * @see KubeopObservation#KUBERNETES_WRITE
 */
public class DefaultKubernetesWriteObservationConvention implements KubernetesWriteObservationConvention {

	/**
	 * The name of the observation, and of the timer a meter handler makes of it.
	 */
	public static final String NAME = "kubeop.write";

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(KubernetesWriteContext context) {
		return context.getVerb() + " " + resource(context);
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(KubernetesWriteContext context) {
		String namespace = context.getNamespace();
		return KeyValues.of(WriteLowCardinalityKeys.VERB.withValue(context.getVerb()),
				WriteLowCardinalityKeys.RESOURCE.withValue(resource(context)),
				WriteLowCardinalityKeys.STATUS_CODE.withValue(Integer.toString(context.getStatusCode())),
				WriteLowCardinalityKeys.NAMESPACE.withValue((namespace != null) ? namespace : KeyValue.NONE_VALUE));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(KubernetesWriteContext context) {
		String name = context.getName();
		return KeyValues.of(WriteHighCardinalityKeys.NAME.withValue((name != null) ? name : KeyValue.NONE_VALUE));
	}

	private static String resource(KubernetesWriteContext context) {
		ResourceKind resource = context.getResource();
		String group = resource.group();
		return resource.plural() + ((group == null || group.isEmpty()) ? "" : "." + group) + context.getSubresource();
	}

}
