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

package io.github.kubeop.maven;

import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.KubernetesResource;

/**
 * Two versions of one kind, {@code Shop}: {@code v1alpha1} with a single owner name,
 * {@code v1} (the storage version) with a list of owners.
 *
 * @author Kubeop authors
 */
final class Shops {

	private Shops() {
	}

	/**
	 * The first version.
	 */
	@KubernetesResource(group = "crdgen.kubeop.test", version = "v1alpha1", kind = "Shop", shortNames = "shop",
			deprecated = true)
	public static class ShopV1alpha1 extends CustomResource<ShopV1alpha1.Spec, Void> {

		/**
		 * The spec.
		 *
		 * @param owner the owner
		 */
		public record Spec(String owner) {
		}

	}

	/**
	 * The current version, stored.
	 */
	@KubernetesResource(group = "crdgen.kubeop.test", version = "v1", kind = "Shop", shortNames = "shop",
			storage = true)
	public static class ShopV1 extends CustomResource<ShopV1.Spec, Void> {

		/**
		 * The spec.
		 *
		 * @param owners the owners
		 */
		public record Spec(java.util.List<String> owners) {
		}

	}

	/**
	 * A second version marked as the storage version.
	 */
	@KubernetesResource(group = "crdgen.kubeop.test", version = "v1beta1", kind = "Shop", storage = true)
	public static class ShopV1beta1 extends CustomResource<ShopV1alpha1.Spec, Void> {

	}

	/**
	 * Another class for version v1.
	 */
	@KubernetesResource(group = "crdgen.kubeop.test", version = "v1", kind = "Shop")
	public static class OtherShopV1 extends CustomResource<ShopV1alpha1.Spec, Void> {

	}

	/**
	 * A version that is cluster-scoped where the others are namespaced.
	 */
	@KubernetesResource(group = "crdgen.kubeop.test", version = "v2", kind = "Shop",
			scope = KubernetesResource.Scope.CLUSTER)
	public static class ClusterShopV2 extends CustomResource<ShopV1alpha1.Spec, Void> {

	}

}
