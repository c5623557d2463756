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

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import io.kubernetes.client.common.KubernetesObject;

import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Finds the {@link ValidatingWebhook} and {@link MutatingWebhook} methods of a class and
 * checks their signatures, failing with a message that names the method and the fix. The
 * same reading serves the running application and the Maven plugin that generates the
 * webhook configurations, so that both agree on names, paths and rules.
 *
 * @author Kubeop authors
 */
public final class WebhookMethods {

	private WebhookMethods() {
	}

	/**
	 * Returns the webhooks a class declares, in method name order.
	 * @param type the class
	 * @return the definitions
	 * @throws InvalidWebhookMethodException for a method Kubeop cannot call
	 */
	public static List<WebhookDefinition> definitions(Class<?> type) {
		return find(type).stream().map(AdmissionMethod::definition).toList();
	}

	static List<AdmissionMethod> find(Class<?> type) {
		List<AdmissionMethod> found = new ArrayList<>();
		List<Method> methods = new ArrayList<>();
		for (Class<?> current = type; current != null && current != Object.class; current = current.getSuperclass()) {
			methods.addAll(Arrays.asList(current.getDeclaredMethods()));
		}
		methods.sort(Comparator.comparing(Method::getName));
		for (Method method : methods) {
			if (method.isBridge() || method.isSynthetic()) {
				continue;
			}
			ValidatingWebhook validating = AnnotatedElementUtils.findMergedAnnotation(method, ValidatingWebhook.class);
			MutatingWebhook mutating = AnnotatedElementUtils.findMergedAnnotation(method, MutatingWebhook.class);
			if (validating != null && mutating != null) {
				throw new InvalidWebhookMethodException(method, "is both a validating and a mutating webhook",
						"Split it into a @MutatingWebhook method that changes the object and a @ValidatingWebhook "
								+ "method that checks it: the API server calls every mutating webhook first.");
			}
			if (validating != null) {
				found.add(read(method, WebhookDefinition.Kind.VALIDATING, validating.operations(),
						validating.failurePolicy(), validating.sideEffects(), validating.timeoutSeconds(),
						validating.namespaceSelector(), validating.objectSelector(), validating.path()));
			}
			if (mutating != null) {
				found.add(read(method, WebhookDefinition.Kind.MUTATING, mutating.operations(), mutating.failurePolicy(),
						mutating.sideEffects(), mutating.timeoutSeconds(), mutating.namespaceSelector(),
						mutating.objectSelector(), mutating.path()));
			}
		}
		return found;
	}

	private static AdmissionMethod read(Method method, WebhookDefinition.Kind kind, Operation[] operations,
			FailurePolicy failurePolicy, SideEffects sideEffects, int timeoutSeconds, String namespaceSelector,
			String objectSelector, String path) {
		String annotation = "@"
				+ ((kind == WebhookDefinition.Kind.VALIDATING) ? ValidatingWebhook.class : MutatingWebhook.class)
					.getSimpleName();
		if (Modifier.isStatic(method.getModifiers())) {
			throw new InvalidWebhookMethodException(method, "is static", "Make it an instance method of the bean.");
		}
		Class<?>[] parameters = method.getParameterTypes();
		int object = -1;
		int old = -1;
		int request = -1;
		for (int i = 0; i < parameters.length; i++) {
			Class<?> parameter = parameters[i];
			if (parameter == AdmissionRequest.class && request < 0) {
				request = i;
			}
			else if (KubernetesObject.class.isAssignableFrom(parameter) && object < 0) {
				object = i;
			}
			else if (object >= 0 && parameter == parameters[object] && old < 0) {
				old = i;
			}
			else {
				throw new InvalidWebhookMethodException(method,
						"has a parameter Kubeop cannot pass: " + parameter.getName() + " (parameter " + (i + 1) + ")",
						"A webhook method takes the object, optionally the old object of the same type (null on "
								+ "create) and optionally an AdmissionRequest, such as (StaticSite site, StaticSite old, "
								+ "AdmissionRequest request).");
			}
		}
		if (object < 0) {
			throw new InvalidWebhookMethodException(method, "takes no object to admit",
					"Declare the object as a parameter: a typed custom resource annotated with @KubernetesResource "
							+ "or a generated model such as V1Pod, as in (StaticSite site).");
		}
		Class<?> objectType = parameters[object];
		WebhookResource resource = WebhookResource.of(objectType);
		if (resource == null) {
			throw new InvalidWebhookMethodException(method,
					"reads " + objectType.getName() + ", which names no group, version and kind Kubeop knows",
					"Take a typed custom resource annotated with @KubernetesResource or a generated model such as "
							+ "V1Pod: the webhook's rule and the decoding of the API server's objects need its kind.");
		}
		Class<?> returned = method.getReturnType();
		if (kind == WebhookDefinition.Kind.VALIDATING && returned != void.class && returned != Admission.class) {
			throw new InvalidWebhookMethodException(method, "returns " + returned.getName(),
					"Return Admission (Admission.allowed(), or Admission.denied(message) with the reason the client "
							+ "sees), or void to always allow.");
		}
		if (kind == WebhookDefinition.Kind.MUTATING && returned != void.class
				&& !objectType.isAssignableFrom(returned)) {
			throw new InvalidWebhookMethodException(method, "returns " + returned.getName(),
					"Return the changed " + objectType.getSimpleName()
							+ " (Kubeop sends the API server the patch from the object received to it), or void after "
							+ "changing the object passed in.");
		}
		if (operations.length == 0) {
			throw new InvalidWebhookMethodException(method, "matches no operation",
					"Name at least one operation in " + annotation + "(operations = ...).");
		}
		if (timeoutSeconds < 1 || timeoutSeconds > 30) {
			throw new InvalidWebhookMethodException(method, "has a timeout of " + timeoutSeconds + " seconds",
					"The API server accepts timeouts from 1 to 30 seconds: set " + annotation
							+ "(timeoutSeconds = ...) within them.");
		}
		checkSelector(method, annotation, "namespaceSelector", namespaceSelector);
		checkSelector(method, annotation, "objectSelector", objectSelector);
		if (!path.isEmpty() && (!path.startsWith("/") || path.contains("?") || path.contains("#"))) {
			throw new InvalidWebhookMethodException(method, "has the path \"" + path + "\"",
					"Give " + annotation + "(path = ...) an absolute path without query, such as \"/validate-sites\".");
		}
		String servedOn = path.isEmpty() ? WebhookDefinition.defaultPath(kind, resource) : path;
		WebhookDefinition definition = new WebhookDefinition(kind, WebhookDefinition.name(kind, resource, path),
				servedOn, resource, List.of(operations), failurePolicy, sideEffects, timeoutSeconds, namespaceSelector,
				objectSelector, method);
		return new AdmissionMethod(definition, objectType.asSubclass(KubernetesObject.class), object, old, request,
				returned != void.class);
	}

	private static void checkSelector(Method method, String annotation, String attribute, String selector) {
		try {
			LabelSelectors.parse(selector);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidWebhookMethodException(method,
					"has an invalid " + attribute + " \"" + selector + "\": " + ex.getMessage(),
					"Write " + annotation + "(" + attribute
							+ " = ...) as a label selector, such as \"environment in (prod,staging),tier!=cache\".");
		}
	}

	/**
	 * A webhook method and where its arguments go.
	 *
	 * @param definition the webhook
	 * @param objectType the type of the object
	 * @param objectIndex the parameter of the object
	 * @param oldIndex the parameter of the old object, or -1
	 * @param requestIndex the parameter of the request, or -1
	 * @param returnsObject whether a mutating method returns the changed object
	 */
	record AdmissionMethod(WebhookDefinition definition, Class<? extends KubernetesObject> objectType, int objectIndex,
			int oldIndex, int requestIndex, boolean returnsObject) {

	}

}
