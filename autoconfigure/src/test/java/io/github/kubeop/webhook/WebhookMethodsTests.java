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

import java.util.List;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link WebhookMethods}: what a webhook method's annotation and signature
 * declare, and the messages for methods Kubeop cannot call.
 *
 * @author Kubeop authors
 */
class WebhookMethodsTests {

	@Test
	void definitionsFollowControllerRuntimesPathsAndKubebuildersNames() {
		// in method name order, so that generated configurations do not change between
		// builds
		List<WebhookDefinition> definitions = WebhookMethods.definitions(Good.class);
		assertThat(definitions).extracting(WebhookDefinition::path)
			.containsExactly("/mutate-webhooks-kubeop-test-v1-widget", "/validate-core-v1-pod",
					"/validate-webhooks-kubeop-test-v1-widget");
		assertThat(definitions).extracting(WebhookDefinition::name)
			.containsExactly("mwidget.webhooks.kubeop.test", "vpod.core.kubeop.io", "vwidget.webhooks.kubeop.test");
		WebhookDefinition pods = definitions.get(1);
		assertThat(pods.resource()).isEqualTo(new WebhookResource("", "v1", "Pod", "pods"));
		assertThat(pods.operations()).containsExactly(Operation.DELETE);
		assertThat(pods.failurePolicy()).isEqualTo(FailurePolicy.IGNORE);
		assertThat(pods.sideEffects()).isEqualTo(SideEffects.NONE_ON_DRY_RUN);
		assertThat(pods.timeoutSeconds()).isEqualTo(3);
		assertThat(LabelSelectors.parse(pods.namespaceSelector()).getMatchExpressions()).singleElement()
			.satisfies((requirement) -> {
				assertThat(requirement.getKey()).isEqualTo("environment");
				assertThat(requirement.getOperator()).isEqualTo("In");
				assertThat(requirement.getValues()).containsExactly("prod", "staging");
			});
		assertThat(LabelSelectors.parse(pods.objectSelector()).getMatchLabels()).containsEntry("app", "web");
	}

	@Test
	void aParameterKubeopCannotPassFailsNamingTheMethodAndTheFix() {
		assertThatExceptionOfType(InvalidWebhookMethodException.class)
			.isThrownBy(() -> WebhookMethods.definitions(StringParameter.class))
			.withMessage("Webhook method " + StringParameter.class.getName()
					+ ".validate(Widget, String) has a parameter Kubeop cannot pass: java.lang.String (parameter 2)")
			.satisfies((ex) -> assertThat(ex.getFix()).contains("optionally the old object of the same type"));
	}

	@Test
	void aValidatingMethodReturningSomethingElseFails() {
		assertThatExceptionOfType(InvalidWebhookMethodException.class)
			.isThrownBy(() -> WebhookMethods.definitions(BooleanReturn.class))
			.withMessageContaining(".validate(Widget) returns boolean")
			.satisfies((ex) -> assertThat(ex.getFix()).contains("Return Admission"));
	}

	@Test
	void aMutatingMethodReturningAnotherTypeFails() {
		assertThatExceptionOfType(InvalidWebhookMethodException.class)
			.isThrownBy(() -> WebhookMethods.definitions(OtherReturn.class))
			.withMessageContaining(".mutate(Widget) returns " + V1Pod.class.getName())
			.satisfies((ex) -> assertThat(ex.getFix()).contains("Return the changed Widget"));
	}

	@Test
	void aTypeWithoutKindFails() {
		assertThatExceptionOfType(InvalidWebhookMethodException.class)
			.isThrownBy(() -> WebhookMethods.definitions(Dynamic.class))
			.withMessageContaining("reads " + DynamicKubernetesObject.class.getName()
					+ ", which names no group, version and kind Kubeop knows")
			.satisfies((ex) -> assertThat(ex.getFix()).contains("@KubernetesResource"));
	}

	@Test
	void aMethodWithoutObjectFails() {
		assertThatExceptionOfType(InvalidWebhookMethodException.class)
			.isThrownBy(() -> WebhookMethods.definitions(NoObject.class))
			.withMessageContaining("takes no object to admit");
	}

	@Test
	void aTimeoutTheApiServerRefusesFails() {
		assertThatExceptionOfType(InvalidWebhookMethodException.class)
			.isThrownBy(() -> WebhookMethods.definitions(LongTimeout.class))
			.withMessageContaining("has a timeout of 45 seconds")
			.satisfies((ex) -> assertThat(ex.getFix()).contains("from 1 to 30 seconds"));
	}

	@Test
	void anUnreadableSelectorFails() {
		assertThatExceptionOfType(InvalidWebhookMethodException.class)
			.isThrownBy(() -> WebhookMethods.definitions(BadSelector.class))
			.withMessageContaining("has an invalid objectSelector \"app in (web\"");
	}

	static class Good {

		@ValidatingWebhook(operations = Operation.DELETE, failurePolicy = FailurePolicy.IGNORE,
				sideEffects = SideEffects.NONE_ON_DRY_RUN, timeoutSeconds = 3,
				namespaceSelector = "environment in (prod, staging)", objectSelector = "app=web")
		Admission pods(V1Pod pod, AdmissionRequest request) {
			return Admission.allowed();
		}

		@MutatingWebhook
		void defaults(Widget widget) {
		}

		@ValidatingWebhook
		void validate(Widget widget, Widget old) {
		}

	}

	static class StringParameter {

		@ValidatingWebhook
		void validate(Widget widget, String name) {
		}

	}

	static class BooleanReturn {

		@ValidatingWebhook
		boolean validate(Widget widget) {
			return true;
		}

	}

	static class OtherReturn {

		@MutatingWebhook
		V1Pod mutate(Widget widget) {
			return null;
		}

	}

	static class Dynamic {

		@ValidatingWebhook
		void validate(DynamicKubernetesObject object) {
		}

	}

	static class NoObject {

		@ValidatingWebhook
		void validate(AdmissionRequest request) {
		}

	}

	static class LongTimeout {

		@ValidatingWebhook(timeoutSeconds = 45)
		void validate(Widget widget) {
		}

	}

	static class BadSelector {

		@ValidatingWebhook(objectSelector = "app in (web")
		void validate(Widget widget) {
		}

	}

}
