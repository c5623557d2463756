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

package io.github.kubeop.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for Kubeop.
 *
 * @author Kubeop authors
 */
@ConfigurationProperties("kubeop")
public class KubeopProperties {

	private final Client client = new Client();

	private final Informers informers = new Informers();

	public Client getClient() {
		return this.client;
	}

	public Informers getInformers() {
		return this.informers;
	}

	/**
	 * How to reach the cluster.
	 */
	public static final class Client {

		/**
		 * Path of the kubeconfig file. Defaults to the first file of the KUBECONFIG
		 * environment variable, then ~/.kube/config, then the in-cluster service account.
		 */
		private String kubeconfig;

		/**
		 * Kubeconfig context to use. Defaults to the kubeconfig's current context.
		 */
		private String context;

		public String getKubeconfig() {
			return this.kubeconfig;
		}

		public void setKubeconfig(String kubeconfig) {
			this.kubeconfig = kubeconfig;
		}

		public String getContext() {
			return this.context;
		}

		public void setContext(String context) {
			this.context = context;
		}

	}

	/**
	 * What to watch, and defaults for every informer.
	 */
	public static final class Informers {

		/**
		 * Whether informers are created from these properties.
		 */
		private boolean enabled = true;

		/**
		 * Namespaces watched by informers that name none. Empty to watch all namespaces.
		 */
		private List<String> namespaces = new ArrayList<>();

		/**
		 * Default period after which handlers are handed every cached object again. Zero
		 * to disable resync.
		 */
		private Duration resyncPeriod = Duration.ZERO;

		/**
		 * How long startup waits for every informer's initial list.
		 */
		private Duration syncTimeout = Duration.ofMinutes(2);

		/**
		 * Server-side timeout of one watch request; each watch gets up to twice this, at
		 * random, and is then reopened from the last resourceVersion.
		 */
		private Duration watchTimeout = Duration.ofMinutes(5);

		/**
		 * Number of objects per page of an initial list.
		 */
		private int pageSize = 500;

		/**
		 * Resources to watch, by informer name. The name also names the Lister, Indexer
		 * and informer beans ("pods" gives "podsLister", "podsIndexer", "podsInformer").
		 */
		private Map<String, Resource> resources = new LinkedHashMap<>();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public List<String> getNamespaces() {
			return this.namespaces;
		}

		public void setNamespaces(List<String> namespaces) {
			this.namespaces = namespaces;
		}

		public Duration getResyncPeriod() {
			return this.resyncPeriod;
		}

		public void setResyncPeriod(Duration resyncPeriod) {
			this.resyncPeriod = resyncPeriod;
		}

		public Duration getSyncTimeout() {
			return this.syncTimeout;
		}

		public void setSyncTimeout(Duration syncTimeout) {
			this.syncTimeout = syncTimeout;
		}

		public Duration getWatchTimeout() {
			return this.watchTimeout;
		}

		public void setWatchTimeout(Duration watchTimeout) {
			this.watchTimeout = watchTimeout;
		}

		public int getPageSize() {
			return this.pageSize;
		}

		public void setPageSize(int pageSize) {
			this.pageSize = pageSize;
		}

		public Map<String, Resource> getResources() {
			return this.resources;
		}

		public void setResources(Map<String, Resource> resources) {
			this.resources = resources;
		}

	}

	/**
	 * One resource to watch.
	 */
	public static final class Resource {

		/**
		 * API version of the resource, such as "v1" or "apps/v1".
		 */
		private String apiVersion;

		/**
		 * Kind of the resource, such as "Pod". A plural resource name ("pods") works too.
		 */
		private String kind;

		/**
		 * Java class objects are converted to. Defaults to the client's generated model
		 * for built-in kinds and to DynamicKubernetesObject for custom resources.
		 */
		private Class<?> type;

		/**
		 * Namespaces to watch. Defaults to kubeop.informers.namespaces; empty there too
		 * means all namespaces.
		 */
		private List<String> namespaces = new ArrayList<>();

		/**
		 * Label selector, such as "app=web,tier!=cache".
		 */
		private String labelSelector;

		/**
		 * Field selector, such as "status.phase=Running".
		 */
		private String fieldSelector;

		/**
		 * Resync period of this informer. Defaults to kubeop.informers.resync-period.
		 */
		private Duration resyncPeriod;

		/**
		 * Whether metadata.managedFields is dropped before objects are cached, which
		 * saves memory; handlers rarely need it.
		 */
		private boolean stripManagedFields = true;

		/**
		 * Names of IndexFunction beans whose indexes the cache keeps; the bean name is
		 * the index name.
		 */
		private List<String> indexers = new ArrayList<>();

		public String getApiVersion() {
			return this.apiVersion;
		}

		public void setApiVersion(String apiVersion) {
			this.apiVersion = apiVersion;
		}

		public String getKind() {
			return this.kind;
		}

		public void setKind(String kind) {
			this.kind = kind;
		}

		public Class<?> getType() {
			return this.type;
		}

		public void setType(Class<?> type) {
			this.type = type;
		}

		public List<String> getNamespaces() {
			return this.namespaces;
		}

		public void setNamespaces(List<String> namespaces) {
			this.namespaces = namespaces;
		}

		public String getLabelSelector() {
			return this.labelSelector;
		}

		public void setLabelSelector(String labelSelector) {
			this.labelSelector = labelSelector;
		}

		public String getFieldSelector() {
			return this.fieldSelector;
		}

		public void setFieldSelector(String fieldSelector) {
			this.fieldSelector = fieldSelector;
		}

		public Duration getResyncPeriod() {
			return this.resyncPeriod;
		}

		public void setResyncPeriod(Duration resyncPeriod) {
			this.resyncPeriod = resyncPeriod;
		}

		public boolean isStripManagedFields() {
			return this.stripManagedFields;
		}

		public void setStripManagedFields(boolean stripManagedFields) {
			this.stripManagedFields = stripManagedFields;
		}

		public List<String> getIndexers() {
			return this.indexers;
		}

		public void setIndexers(List<String> indexers) {
			this.indexers = indexers;
		}

	}

}
