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
package io.github.kubeop.docs.writing;

// tag::example[]
import io.github.kubeop.annotation.Cleanup;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.handler.HandlerContext;
import io.kubernetes.client.openapi.models.V1ConfigMap;

import org.springframework.stereotype.Component;

/**
 * Creates a DNS record for each website and removes it before the website goes.
 *
 * @author Kubeop authors
 */
@Component
class DnsRecordHandler {

	@Reconcile
	void reconcile(V1ConfigMap website) {
		// the object holds the finalizer already: create the DNS record
	}

	@Cleanup(finalizer = "sample.kubeop.io/dns")
	void cleanUp(V1ConfigMap website, HandlerContext context) {
		// the object is being deleted: remove the DNS record (idempotently)
	}

}
// end::example[]
