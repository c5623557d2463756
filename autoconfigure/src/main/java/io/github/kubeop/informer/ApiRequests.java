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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import okhttp3.Call;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Builds GET requests the way the generated APIs do, so that every authentication the
 * client was configured with (client certificates, bearer tokens, exec plugins) applies.
 *
 * @author Kubeop authors
 */
final class ApiRequests {

	private static final String[] AUTH_NAMES = { "BearerToken" };

	private ApiRequests() {
	}

	static Request get(ApiClient client, String path, List<Pair> query) {
		return get(client, path, query, null);
	}

	/**
	 * Builds a GET request that accepts the given media types.
	 * @param client the client
	 * @param path the path
	 * @param query the query parameters
	 * @param accept the {@code Accept} header, or {@code null} for the client's default
	 * @return the request
	 */
	static Request get(ApiClient client, String path, List<Pair> query, String accept) {
		Map<String, String> headers = new HashMap<>();
		if (accept != null) {
			headers.put("Accept", accept);
		}
		try {
			return client
				.buildCall(client.getBasePath(), path, "GET", new ArrayList<>(query), new ArrayList<>(), null, headers,
						new HashMap<>(), new HashMap<>(), AUTH_NAMES, null)
				.request();
		}
		catch (ApiException ex) {
			throw new InformerException("Could not build a request for " + path, ex);
		}
	}

	/**
	 * Executes a request and returns the body of a successful response.
	 * @param http the HTTP client
	 * @param request the request
	 * @return the body
	 * @throws ApiException with the status code and body of an unsuccessful response
	 * @throws IOException on a connection failure
	 */
	static String execute(OkHttpClient http, Request request) throws ApiException, IOException {
		try (Response response = open(http.newCall(request))) {
			return (response.body() != null) ? response.body().string() : "";
		}
	}

	/**
	 * Executes a call and returns its response if it is successful, so that the caller
	 * can read the body as a stream; the caller must close the response.
	 * @param call the call
	 * @return the successful response
	 * @throws ApiException with the status code and body of an unsuccessful response
	 * @throws IOException on a connection failure
	 */
	static Response open(Call call) throws ApiException, IOException {
		return checked(call.execute());
	}

	/**
	 * Returns a response if it is successful.
	 * @param response the response
	 * @return the successful response
	 * @throws ApiException with the status code and body of an unsuccessful response,
	 * which is closed; a {@code Status} the server sent in protobuf is the body as JSON,
	 * so that its message and reason are read as those of a JSON answer
	 * @throws IOException if the body of an unsuccessful response cannot be read
	 */
	static Response checked(Response response) throws ApiException, IOException {
		if (response.isSuccessful()) {
			return response;
		}
		try (response) {
			String body = "";
			if (response.body() != null && ProtobufDecoder.isProtobuf(response.header("Content-Type"))) {
				byte[] bytes = response.body().bytes();
				String status = ProtobufDecoder.statusJson(bytes);
				body = (status != null) ? status : new String(bytes, StandardCharsets.UTF_8);
			}
			else if (response.body() != null) {
				body = response.body().string();
			}
			throw new ApiException(response.code(), response.headers().toMultimap(), body);
		}
	}

}
