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

package io.github.kubeop.docs.references;

// tag::mapper[]
import java.util.List;
import java.util.Map;

import io.github.kubeop.annotation.OnUpdate;
import io.github.kubeop.annotation.References;
import io.github.kubeop.handler.ReferenceMapper;
import io.kubernetes.client.openapi.models.V1Secret;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Maps a Secret to the Backup its {@code docs.kubeop.io/backup} label names: a relation
 * no path in the Backup says.
 *
 * @author Kubeop authors
 */
@Configuration(proxyBeanMethods = false)
public class BackupMappers {

	@Bean
	ReferenceMapper<V1Secret> backupOfSecret() {
		return (secret) -> {
			Map<String, String> labels = secret.getMetadata().getLabels();
			String backup = (labels != null) ? labels.get("docs.kubeop.io/backup") : null;
			return (backup != null) ? List.of(secret.getMetadata().getNamespace() + "/" + backup) : List.of();
		};
	}

	/**
	 * Called for a Backup when a Secret labelled for it changes, and for both Backups
	 * when the label moves from one to the other.
	 */
	@References(value = V1Secret.class, mapper = "backupOfSecret")
	static class LabelledSecrets {

		@OnUpdate
		void changed(Backup backup) {
			// read the labelled Secrets, act on them
		}

	}

}
// end::mapper[]
