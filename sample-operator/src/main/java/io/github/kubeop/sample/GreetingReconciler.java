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

package io.github.kubeop.sample;

import java.util.List;
import java.util.Map;

import io.github.kubeop.informer.ResourceInformer;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.stereotype.Component;

/**
 * Answers every greeting ConfigMap with a reply ConfigMap owned by it. Until Kubeop's
 * {@code @OnAdd}/{@code @OnUpdate} handlers land, it listens on the informer directly.
 *
 * @author Kubeop authors
 */
@Component
class GreetingReconciler implements ResourceEventHandler<V1ConfigMap> {

	static final String GREETING_LABEL = "sample.kubeop.io/greeting";

	static final String REPLY_LABEL = "sample.kubeop.io/reply-to";

	private static final Log logger = LogFactory.getLog(GreetingReconciler.class);

	private final CoreV1Api api;

	GreetingReconciler(ApiClient client, ResourceInformer<V1ConfigMap> greetingsInformer) {
		this.api = new CoreV1Api(client);
		greetingsInformer.addEventHandler(this);
	}

	@Override
	public void onAdd(V1ConfigMap greeting) {
		reconcile(greeting);
	}

	@Override
	public void onUpdate(V1ConfigMap oldGreeting, V1ConfigMap greeting) {
		reconcile(greeting);
	}

	@Override
	public void onDelete(V1ConfigMap greeting, boolean deletedFinalStateUnknown) {
		logger.info("Greeting " + key(greeting) + " deleted; its reply goes with it (owner reference)");
	}

	void reconcile(V1ConfigMap greeting) {
		String name = greeting.getMetadata().getName() + "-reply";
		String text = "Hello back, " + greeting.getData().getOrDefault("from", "stranger") + "!";
		V1ConfigMap reply = new V1ConfigMap().metadata(new V1ObjectMeta().name(name)
			.namespace(greeting.getMetadata().getNamespace())
			.labels(Map.of(REPLY_LABEL, greeting.getMetadata().getName()))
			.ownerReferences(List.of(new V1OwnerReference().apiVersion("v1")
				.kind("ConfigMap")
				.name(greeting.getMetadata().getName())
				.uid(greeting.getMetadata().getUid()))))
			.data(Map.of("reply", text));
		try {
			this.api.createNamespacedConfigMap(greeting.getMetadata().getNamespace(), reply).execute();
			logger.info("Reconciled greeting " + key(greeting) + ": created reply " + name + " saying '" + text + "'");
		}
		catch (ApiException ex) {
			if (ex.getCode() == 409) {
				logger.info("Reconciled greeting " + key(greeting) + ": reply " + name + " already exists");
				return;
			}
			logger.error("Could not reply to greeting " + key(greeting) + ": HTTP " + ex.getCode());
		}
	}

	private static String key(V1ConfigMap configMap) {
		return configMap.getMetadata().getNamespace() + "/" + configMap.getMetadata().getName();
	}

}
