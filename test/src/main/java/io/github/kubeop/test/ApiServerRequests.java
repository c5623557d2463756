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
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubernetes.client.openapi.ApiClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Counts the requests the API server itself served, from its {@code /metrics}
 * ({@code apiserver_request_total}), so that a test proves what reached the server, not
 * what a client meant to send: for example that a steady-state reconcile writes nothing.
 * The counts are the server's since it started, over every client, and carry no
 * namespace: compare counts taken before and after, of resources that nothing else writes
 * meanwhile.
 *
 * <pre class="code">
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

	private static String label(String labels, String name) {
		Matcher matcher = Pattern.compile("(?:^|,)" + name + "=\"([^\"]*)\"").matcher(labels);
		return matcher.find() ? matcher.group(1) : "";
	}

}
