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

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1UserInfo;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.util.ReflectionUtils;

/**
 * Answers the {@code AdmissionReview}s (v1) of one webhook method: reads the objects as
 * the method's type, calls it, and answers allowed, denied with the method's message, or
 * (for a mutating method) allowed with the JSON patch to the object it returned. The
 * answer is always an {@code AdmissionReview}: a method that throws, or an object the
 * method's type cannot read, is a denial with a message that says so, never an HTTP error
 * the API server would report without it.
 *
 * @author Kubeop authors
 */
final class AdmissionEndpoint implements WebhookEndpoint {

	private static final Log logger = LogFactory.getLog(AdmissionEndpoint.class);

	private final Object bean;

	private final WebhookMethods.AdmissionMethod method;

	private final Gson gson;

	AdmissionEndpoint(Object bean, WebhookMethods.AdmissionMethod method, Gson gson) {
		this.bean = bean;
		this.method = method;
		this.gson = gson;
		ReflectionUtils.makeAccessible(method.definition().method());
	}

	@Override
	public String path() {
		return this.method.definition().path();
	}

	WebhookDefinition definition() {
		return this.method.definition();
	}

	@Override
	public Answer answer(JsonObject review) {
		JsonObject request = review.getAsJsonObject("request");
		String uid = string(request, "uid");
		Result result = admit(request);
		JsonObject response = new JsonObject();
		response.addProperty("uid", uid);
		response.addProperty("allowed", result.admission().isAllowed());
		if (!result.admission().isAllowed()) {
			JsonObject status = new JsonObject();
			status.addProperty("code", result.admission().code());
			status.addProperty("message", result.admission().getMessage());
			if (result.admission().code() == 403) {
				status.addProperty("reason", "Forbidden");
			}
			response.add("status", status);
		}
		if (result.patch() != null && !result.patch().isEmpty()) {
			response.addProperty("patchType", "JSONPatch");
			response.addProperty("patch",
					Base64.getEncoder().encodeToString(result.patch().toString().getBytes(StandardCharsets.UTF_8)));
		}
		if (!result.warnings().isEmpty()) {
			JsonArray warnings = new JsonArray();
			result.warnings().forEach(warnings::add);
			response.add("warnings", warnings);
		}
		JsonObject answer = new JsonObject();
		answer.addProperty("apiVersion", "admission.k8s.io/v1");
		answer.addProperty("kind", "AdmissionReview");
		answer.add("response", response);
		return new Answer(answer, result.admission().code(), result.failure());
	}

	private Result admit(JsonObject request) {
		WebhookDefinition definition = this.method.definition();
		Operation operation = Operation.valueOf(string(request, "operation").toUpperCase(Locale.ROOT));
		JsonObject kind = request.getAsJsonObject("kind");
		WebhookResource resource = definition.resource();
		if (kind != null && !(resource.group().equals(string(kind, "group"))
				&& resource.version().equals(string(kind, "version"))
				&& resource.kind().equals(string(kind, "kind")))) {
			return Result.of(Admission.errored(400,
					"webhook " + definition.name() + " reads " + resource.apiVersion() + " " + resource.kind()
							+ ", but the API server sent " + apiVersion(kind) + " " + string(kind, "kind")));
		}
		JsonElement newJson = request.get("object");
		JsonElement oldJson = request.get("oldObject");
		JsonElement objectJson = (operation == Operation.DELETE || isNull(newJson)) ? oldJson : newJson;
		KubernetesObject object;
		KubernetesObject old;
		try {
			object = read(objectJson);
			old = (operation == Operation.DELETE) ? null : read(oldJson);
		}
		catch (RuntimeException ex) {
			return Result.of(Admission.errored(400, "webhook " + definition.name() + " could not read the "
					+ resource.kind() + " as " + this.method.objectType().getName() + ": " + ex.getMessage()));
		}
		if (object == null) {
			return Result
				.of(Admission.errored(400, "webhook " + definition.name() + " got no object for " + operation.name()));
		}
		AdmissionRequest context = new AdmissionRequest(string(request, "uid"), operation, userInfo(request),
				request.has("dryRun") && request.get("dryRun").getAsBoolean(), string(request, "namespace"),
				string(request, "name"), string(request, "subResource"));
		Object[] arguments = new Object[definition.method().getParameterCount()];
		arguments[this.method.objectIndex()] = object;
		if (this.method.oldIndex() >= 0) {
			arguments[this.method.oldIndex()] = old;
		}
		if (this.method.requestIndex() >= 0) {
			arguments[this.method.requestIndex()] = context;
		}
		JsonElement before = (definition.admission() == WebhookDefinition.Kind.MUTATING) ? this.gson.toJsonTree(object)
				: null;
		Object returned;
		try {
			returned = invoke(definition.method(), arguments);
		}
		catch (InvocationTargetException ex) {
			Throwable failure = (ex.getCause() != null) ? ex.getCause() : ex;
			logger.error("Webhook method " + InvalidWebhookMethodException.describe(definition.method()) + " threw on "
					+ operation + " of " + describe(request), failure);
			return new Result(Admission.errored(500, "webhook " + definition.name() + " threw "
					+ failure.getClass().getName() + ": " + failure.getMessage()), null, List.of(), failure);
		}
		List<String> warnings = new ArrayList<>();
		if (definition.admission() == WebhookDefinition.Kind.VALIDATING) {
			Admission admission = (returned != null) ? (Admission) returned : Admission.allowed();
			warnings.addAll(admission.getWarnings());
			warnings.addAll(context.warnings());
			return new Result(admission, null, warnings, null);
		}
		Object changed = (this.method.returnsObject()) ? returned : object;
		if (changed == null) {
			return new Result(Admission.errored(500, "webhook " + definition.name() + " returned null; return the "
					+ resource.kind() + " to admit, changed or not"), null, List.of(), null);
		}
		JsonArray patch = JsonPatches.diff(before, this.gson.toJsonTree(changed));
		return new Result(Admission.allowed(), patch, context.warnings(), null);
	}

	private Object invoke(Method method, Object[] arguments) throws InvocationTargetException {
		try {
			return method.invoke(this.bean, arguments);
		}
		catch (IllegalAccessException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private KubernetesObject read(JsonElement json) {
		if (isNull(json)) {
			return null;
		}
		return this.gson.fromJson(json, this.method.objectType());
	}

	private V1UserInfo userInfo(JsonObject request) {
		JsonElement userInfo = request.get("userInfo");
		return isNull(userInfo) ? null : this.gson.fromJson(userInfo, V1UserInfo.class);
	}

	private static String describe(JsonObject request) {
		String namespace = string(request, "namespace");
		return ((namespace != null) ? namespace + "/" : "") + string(request, "name");
	}

	private static String apiVersion(JsonObject kind) {
		String group = string(kind, "group");
		return (group == null || group.isEmpty()) ? string(kind, "version") : group + "/" + string(kind, "version");
	}

	private static boolean isNull(JsonElement element) {
		return element == null || element.isJsonNull();
	}

	static String string(JsonObject object, String member) {
		JsonElement element = object.get(member);
		return isNull(element) ? null : element.getAsString();
	}

	/**
	 * What a call came to.
	 *
	 * @param admission the answer
	 * @param patch the patch of a mutating webhook
	 * @param warnings the warnings
	 * @param failure what the method threw
	 */
	record Result(Admission admission, JsonArray patch, List<String> warnings, Throwable failure) {

		static Result of(Admission admission) {
			return new Result(admission, null, List.of(), null);
		}

	}

}
