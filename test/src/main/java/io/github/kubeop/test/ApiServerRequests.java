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

package io.github.kubeop.test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1NamespaceCondition;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Counts the requests the API server itself served, from its {@code /metrics}
 * ({@code apiserver_request_total}), so that a test proves what reached the server, not
 * what a client meant to send: for example that a steady-state reconcile writes nothing.
 * The counts are the server's since it started, over every client, and carry no
 * namespace: compare counts taken before and after, of resources that nothing else writes
 * meanwhile. On a control plane that runs kube-controller-manager, a namespace being
 * deleted is such a writer: call {@link #awaitNoNamespaceDeletion(ApiClient, Duration)}
 * before the first count.
 *
 * <pre class="code">
 * ApiServerRequests.awaitNoNamespaceDeletion(admin, Duration.ofMinutes(2));
 * long before = ApiServerRequests.count(admin, ApiServerRequests.WRITES, "deployments");
 * // ... reconciles that must change nothing ...
 * assertThat(ApiServerRequests.count(admin, ApiServerRequests.WRITES, "deployments")).isEqualTo(before);
 * </pre>
 *
 * @author Kubeop authors
 */
public final class ApiServerRequests {

	/**
	 * The verbs of writes as the API server counts them: server-side applies are counted
	 * as {@code PATCH}, or as {@code APPLY} when their content type carries no charset.
	 */
	public static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "APPLY", "DELETE", "DELETECOLLECTION");

	/**
	 * The verbs of reads, watches excepted.
	 */
	public static final Set<String> READS = Set.of("GET", "LIST");

	private static final Pattern SAMPLE = Pattern.compile("^apiserver_request_total\\{([^}]*)\\} (\\S+)$");

	private ApiServerRequests() {
	}

	/**
	 * Returns how many requests the server served for some resources themselves (no
	 * subresource), by any of the given verbs, since it started.
	 * @param client a client allowed to read {@code /metrics}, such as an administrator
	 * @param verbs the verbs
	 * @param resources the resources, such as {@code limitranges}
	 * @return the count
	 * @throws IOException if the metrics cannot be read
	 */
	public static long count(ApiClient client, Set<String> verbs, String... resources) throws IOException {
		Request request = new Request.Builder().url(client.getBasePath() + "/metrics").build();
		Set<String> wanted = Set.of(resources);
		long count = 0;
		try (Response response = client.getHttpClient().newCall(request).execute()) {
			for (String line : response.body().string().split("\n")) {
				Matcher sample = SAMPLE.matcher(line);
				if (sample.matches() && wanted.contains(label(sample.group(1), "resource"))
						&& label(sample.group(1), "subresource").isEmpty()
						&& verbs.contains(label(sample.group(1), "verb"))) {
					count += (long) Double.parseDouble(sample.group(2));
				}
			}
		}
		return count;
	}

	/**
	 * Waits until no namespace is being deleted. The namespace controller of
	 * kube-controller-manager deletes a namespace's content in passes, each a
	 * {@code DELETECOLLECTION} (counted by the server as {@code DELETE}) and a
	 * {@code LIST} of every namespaced resource, repeated every few seconds until the
	 * namespace is empty, and for ever if an object in it keeps a finalizer that no
	 * running controller removes (an operator stopped before its test namespace was
	 * deleted, for example). Those requests carry no namespace in the counts, so they
	 * cannot be told from the ones a test measures. On a control plane without
	 * kube-controller-manager nothing deletes a namespace's content and a deleted
	 * namespace stays {@code Terminating} for ever: do not call this there.
	 * @param client a client allowed to list namespaces, such as an administrator
	 * @param timeout how long to wait
	 * @throws IllegalStateException if a namespace is still being deleted after the
	 * timeout, naming it and what its deletion waits for
	 * @throws ApiException if the namespaces cannot be listed
	 * @throws InterruptedException if interrupted while waiting
	 */
	public static void awaitNoNamespaceDeletion(ApiClient client, Duration timeout)
			throws ApiException, InterruptedException {
		CoreV1Api core = new CoreV1Api(client);
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			List<V1Namespace> deleting = core.listNamespace()
				.execute()
				.getItems()
				.stream()
				.filter((namespace) -> namespace.getMetadata().getDeletionTimestamp() != null)
				.toList();
			if (deleting.isEmpty()) {
				return;
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("Namespaces still being deleted after " + timeout + ", their content "
						+ "deleted again every few seconds: "
						+ deleting.stream().map(ApiServerRequests::describe).collect(Collectors.joining("; ")));
			}
			Thread.sleep(250);
		}
	}

	private static String describe(V1Namespace namespace) {
		List<V1NamespaceCondition> conditions = (namespace.getStatus() != null
				&& namespace.getStatus().getConditions() != null) ? namespace.getStatus().getConditions() : List.of();
		String waitingFor = conditions.stream()
			.filter((condition) -> "True".equals(condition.getStatus()) && condition.getMessage() != null)
			.map(V1NamespaceCondition::getMessage)
			.collect(Collectors.joining(", "));
		return namespace.getMetadata().getName() + (waitingFor.isEmpty() ? "" : " (" + waitingFor + ")");
	}

	private static String label(String labels, String name) {
		Matcher matcher = Pattern.compile("(?:^|,)" + name + "=\"([^\"]*)\"").matcher(labels);
		return matcher.find() ? matcher.group(1) : "";
	}

}
