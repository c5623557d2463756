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

package io.github.kubeop.informer;

/**
 * How an informer reads the state it starts from, initially and after a watch could not
 * resume. Either way the objects go into the cache as they arrive, so that a relist holds
 * the old cache and one object more, never a second copy of the list.
 *
 * @author Kubeop authors
 */
public enum ListStrategy {

	/**
	 * A streaming watch-list, as client-go does by default since 0.35: a watch with
	 * {@code sendInitialEvents=true} sends every object as an {@code ADDED} event, then a
	 * bookmark annotated {@code k8s.io/initial-events-end}, and goes on as a watch. An
	 * API server that refuses it is listed in pages instead, for the rest of the
	 * informer's life.
	 */
	WATCH_LIST,

	/**
	 * A paged list, then a watch from the list's resourceVersion.
	 */
	LIST

}
