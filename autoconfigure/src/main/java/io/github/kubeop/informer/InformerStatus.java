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

import java.time.Instant;
import java.util.Map;

/**
 * A snapshot of an informer's state, for health and metrics. It never holds object
 * contents.
 *
 * @param name the informer name
 * @param resource the resource, such as {@code configmaps/v1}
 * @param scope the namespaces and selectors
 * @param synced whether the initial list has completed in every namespace
 * @param cacheSize how many objects the cache holds
 * @param lastResourceVersion the newest resourceVersion seen
 * @param state what the connection is doing; the least healthy namespace wins
 * @param reconnectingSince when the connection started failing, or {@code null}
 * @param lastError the last list or watch failure, or {@code null}
 * @param relists how many lists have completed, the initial one included
 * @param watchRestarts how many times a watch was opened again after the first
 * @param indexFailures how many times an index function threw; each time the object
 * stayed cached and in every other index
 * @param objectsLeftOutOfIndexes how many cached objects each index leaves out because
 * its function threw for them, by index name; empty when none
 * @param listMethod how the informer lists: {@code watch-list} (a watch that sends the
 * initial state first) or {@code list} (pages, by configuration or because the API server
 * refused a watch-list)
 * @author Kubeop authors
 */
public record InformerStatus(String name, String resource, String scope, boolean synced, int cacheSize,
		String lastResourceVersion, WatchState state, Instant reconnectingSince, String lastError, long relists,
		long watchRestarts, long indexFailures, Map<String, Integer> objectsLeftOutOfIndexes, String listMethod) {

}
