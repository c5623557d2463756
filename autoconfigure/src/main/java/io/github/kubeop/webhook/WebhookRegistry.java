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

package io.github.kubeop.webhook;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * The webhooks of the application, by path: one per {@link ValidatingWebhook} and
 * {@link MutatingWebhook} method, and {@code /convert} when {@link VersionConverter}
 * beans exist. The web server hands it the requests, the local registration reads what to
 * register, and meters hear of every call.
 *
 * @author Kubeop authors
 */
public final class WebhookRegistry {

	/**
	 * The largest review a transport reads: twice the API server's largest object (an
	 * update carries the object and the old one) with room to spare.
	 */
	public static final int MAX_BODY = 12 * 1024 * 1024;

	private final Map<String, WebhookEndpoint> endpoints = new ConcurrentHashMap<>();

	private final List<AdmissionEndpoint> admission = new ArrayList<>();

	private final Gson gson;

	private final WebhookObserver observer;

	private volatile ConversionEndpoint conversion;

	/**
	 * Creates a registry.
	 * @param gson the Gson that reads and writes the objects (the API client's)
	 * @param observer told of every call
	 */
	public WebhookRegistry(Gson gson, WebhookObserver observer) {
		this.gson = gson;
		this.observer = observer;
	}

	/**
	 * Registers the webhook methods of a bean.
	 * @param bean the bean
	 * @param type the bean's class (the target class of a proxy)
	 * @throws InvalidWebhookMethodException for a method Kubeop cannot call, or two
	 * methods on one path
	 */
	public synchronized void registerBean(Object bean, Class<?> type) {
		for (WebhookMethods.AdmissionMethod method : WebhookMethods.find(type)) {
			AdmissionEndpoint endpoint = new AdmissionEndpoint(bean, method, this.gson);
			WebhookEndpoint existing = this.endpoints.putIfAbsent(endpoint.path(), endpoint);
			if (existing != null) {
				Object other = (existing instanceof AdmissionEndpoint admitting)
						? InvalidWebhookMethodException.describe(admitting.definition().method()) : existing.path();
				throw new InvalidWebhookMethodException(method.definition().method(),
						"is served on " + endpoint.path() + ", as " + other + " is",
						"Give one of them a path of its own, such as @"
								+ ((method.definition().admission() == WebhookDefinition.Kind.VALIDATING)
										? "ValidatingWebhook" : "MutatingWebhook")
								+ "(path = \"" + endpoint.path() + "-" + method.definition().method().getName()
								+ "\").");
			}
			this.admission.add(endpoint);
			this.observer.registered(endpoint.path());
		}
	}

	/**
	 * Registers the converters of custom resources with several versions.
	 * @param converters the converters
	 * @throws InvalidConverterException for converters that do not fit together
	 */
	public synchronized void registerConverters(List<VersionConverter<?, ?>> converters) {
		if (converters.isEmpty()) {
			return;
		}
		ConversionEndpoint endpoint = new ConversionEndpoint(converters, this.gson);
		this.conversion = endpoint;
		this.endpoints.put(endpoint.path(), endpoint);
		this.observer.registered(endpoint.path());
		endpoint.definitionPaths().values().forEach((path) -> {
			this.endpoints.put(path, endpoint);
			this.observer.registered(path);
		});
	}

	void registerEndpoint(WebhookEndpoint endpoint) {
		this.endpoints.put(endpoint.path(), endpoint);
	}

	/**
	 * Returns whether the application has no webhooks.
	 * @return whether there is nothing to serve
	 */
	public boolean isEmpty() {
		return this.endpoints.isEmpty();
	}

	/**
	 * Returns the admission webhooks.
	 * @return the definitions
	 */
	public synchronized List<WebhookDefinition> admissionWebhooks() {
		return this.admission.stream().map(AdmissionEndpoint::definition).toList();
	}

	/**
	 * Returns the names of the CustomResourceDefinitions whose versions have converters,
	 * such as {@code widgets.example.com}.
	 * @return the definition names
	 */
	public List<String> convertedDefinitions() {
		ConversionEndpoint endpoint = this.conversion;
		return (endpoint != null) ? endpoint.definitionNames() : List.of();
	}

	/**
	 * Returns the conversion path of a CustomResourceDefinition with converters.
	 * @param definition the definition name, such as {@code widgets.example.com}
	 * @return the path, such as {@code /convert/example.com/widgets}
	 */
	public String conversionPath(String definition) {
		ConversionEndpoint endpoint = this.conversion;
		return (endpoint != null) ? endpoint.definitionPaths().getOrDefault(definition, ConversionEndpoint.PATH)
				: ConversionEndpoint.PATH;
	}

	/**
	 * Returns whether a webhook is served on a path.
	 * @param path the path
	 * @return whether there is a webhook
	 */
	public boolean serves(String path) {
		return this.endpoints.containsKey(path);
	}

	/**
	 * Refuses, before its body is read, a request that is not a review posted to a
	 * webhook's path, as every transport must (404 for another path, 405 for another
	 * method).
	 * @param method the request's HTTP method
	 * @param path the request's path
	 * @return the response to send, or {@code null} to read the body and
	 * {@linkplain #respond(String, byte[]) respond}
	 */
	public Response refuse(String method, String path) {
		if (!serves(path)) {
			return Response.error(404, "No webhook on " + path);
		}
		if (!"POST".equals(method)) {
			return Response.error(405, "Webhooks take POST");
		}
		return null;
	}

	/**
	 * Answers the body of a review posted to a webhook's path: the transports differ only
	 * in how they read the request and write this response.
	 * @param path the path
	 * @param body the body, of at most {@link #MAX_BODY} bytes (a transport that read
	 * more passes {@code MAX_BODY + 1} of them)
	 * @return 200 with the answered review, 400 for a body that is no review, 413 for one
	 * too large
	 */
	public Response respond(String path, byte[] body) {
		if (body.length > MAX_BODY) {
			return Response.error(413, "A review may not be larger than " + MAX_BODY + " bytes");
		}
		try {
			return new Response(200, "application/json", answer(path, new String(body, StandardCharsets.UTF_8)));
		}
		catch (IllegalArgumentException ex) {
			return Response.error(400, ex.getMessage());
		}
	}

	/**
	 * Answers a review posted to a path.
	 * @param path the path
	 * @param body the review as JSON
	 * @return the review with its response, as JSON
	 * @throws IllegalArgumentException if the body is not a review
	 */
	public String answer(String path, String body) {
		WebhookEndpoint endpoint = this.endpoints.get(path);
		if (endpoint == null) {
			throw new IllegalArgumentException("No webhook on " + path);
		}
		JsonObject review;
		try {
			review = JsonParser.parseString(body).getAsJsonObject();
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException("The body is not a JSON review: " + ex.getMessage(), ex);
		}
		if (!review.has("request") || !review.get("request").isJsonObject()) {
			throw new IllegalArgumentException("The review has no request");
		}
		long start = System.nanoTime();
		this.observer.started(path);
		WebhookEndpoint.Answer answer = endpoint.answer(review);
		if (answer.failure() != null) {
			this.observer.threw(path, answer.failure());
		}
		this.observer.answered(path, answer.code(), System.nanoTime() - start);
		return this.gson.toJson(answer.review());
	}

	/**
	 * What a transport sends back.
	 *
	 * @param status the HTTP status
	 * @param contentType the body's content type
	 * @param body the body
	 */
	public record Response(int status, String contentType, String body) {

		static Response error(int status, String message) {
			return new Response(status, "text/plain;charset=UTF-8", message);
		}

		/**
		 * Returns the {@code Allow} header a 405 carries.
		 * @return {@code POST} for a 405, otherwise {@code null}
		 */
		public String allow() {
			return (this.status == 405) ? "POST" : null;
		}

	}

}
