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

package io.github.kubeop.leader;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;

/**
 * Sends Lease requests on connections of their own (no watch holds them), each cut off at
 * a deadline, as client-go bounds each leader-election request by its context. Leader
 * election and shard membership both renew through it.
 *
 * @author Kubeop authors
 */
public final class BoundedRequests {

	private final ApiClient client;

	private final OkHttpClient http;

	/**
	 * Creates the requests of one elector or member.
	 * @param client the client whose settings and credentials are used
	 * @param timeout the longest any request may take
	 */
	public BoundedRequests(ApiClient client, Duration timeout) {
		this.client = client;
		this.http = client.getHttpClient()
			.newBuilder()
			.connectionPool(new ConnectionPool())
			.callTimeout(timeout)
			.build();
	}

	/**
	 * Sends the request the generated API prepared, cut off at the deadline.
	 * @param <R> the type of the answer
	 * @param prepared the prepared call, such as
	 * {@code api.readNamespacedLease(...).buildCall(null)}
	 * @param deadline the deadline, in {@link System#nanoTime()} terms
	 * @param type the type of the answer
	 * @return the answer
	 * @throws ApiException if the request failed, or the deadline has passed
	 */
	public <R> R execute(Call prepared, long deadline, Class<R> type) throws ApiException {
		return execute(prepared, Duration.ofNanos(deadline - System.nanoTime()), type);
	}

	/**
	 * Sends the request the generated API prepared, cut off when the time left runs out.
	 * @param <R> the type of the answer
	 * @param prepared the prepared call
	 * @param timeLeft the time left until the deadline
	 * @param type the type of the answer
	 * @return the answer
	 * @throws ApiException if the request failed, or no time is left
	 */
	public <R> R execute(Call prepared, Duration timeLeft, Class<R> type) throws ApiException {
		long left = timeLeft.toNanos();
		if (left <= 0) {
			throw new ApiException("The renew deadline has passed");
		}
		Call call = this.http.newCall(prepared.request());
		call.timeout().timeout(left, TimeUnit.NANOSECONDS);
		try {
			return this.client.<R>execute(call, type).getData();
		}
		catch (ApiException ex) {
			if (ex.getCode() == 0) {
				// a connection that timed out is likely dead: the next attempt dials anew
				this.http.connectionPool().evictAll();
			}
			throw ex;
		}
	}

}
