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

import io.github.kubeop.handler.QueueSettings;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ListStrategy;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for Kubeop. Unknown keys under {@code kubeop} fail startup
 * (explained by {@link UnknownKubeopPropertyFailureAnalyzer}): an ignored misspelling can
 * make Kubeop do the opposite of what was asked. System properties and environment
 * variables are exempt, as Spring Boot exempts them for every such binding: they are
 * shared with the rest of the process.
 *
 * @author Kubeop authors
 */
@ConfigurationProperties(prefix = "kubeop", ignoreUnknownFields = false)
public class KubeopProperties {

	private final Client client = new Client();

	private final Informers informers = new Informers();

	private final Handlers handlers = new Handlers();

	private final LeaderElection leaderElection = new LeaderElection();

	private final Sharding sharding = new Sharding();

	private final Health health = new Health();

	private final Write write = new Write();

	private final Events events = new Events();

	private final Webhooks webhooks = new Webhooks();

	public Client getClient() {
		return this.client;
	}

	public Informers getInformers() {
		return this.informers;
	}

	public Handlers getHandlers() {
		return this.handlers;
	}

	public LeaderElection getLeaderElection() {
		return this.leaderElection;
	}

	public Health getHealth() {
		return this.health;
	}

	public Sharding getSharding() {
		return this.sharding;
	}

	public Events getEvents() {
		return this.events;
	}

	public Webhooks getWebhooks() {
		return this.webhooks;
	}

	/**
	 * Admission and conversion webhooks, served over TLS on a port of their own by the
	 * application's servlet web server.
	 */
	public static final class Webhooks {

		/**
		 * Whether to serve the application's webhook methods and version converters.
		 */
		private boolean enabled = true;

		/**
		 * Port of the TLS connector that serves the webhooks (controller-runtime's 9443
		 * by default); 0 for a free port.
		 */
		private int port = 9443;

		/**
		 * Address the webhook connector binds to; all addresses when unset.
		 */
		private String address;

		/**
		 * Directory with the serving certificate and key as tls.crt and tls.key (the
		 * Secret cert-manager issues, mounted as controller-runtime's
		 * /tmp/k8s-webhook-server/serving-certs), read again when they change; its ca.crt
		 * is the authority a local registration gives the API server. When unset, a
		 * certificate authority and a serving certificate for the loopback names are made
		 * at startup.
		 */
		private String certificateDirectory;

		/**
		 * How often the files in the certificate directory are read again, so that a
		 * renewed certificate (cert-manager renews the Secret, the kubelet updates the
		 * mounted files) is served without a restart.
		 */
		private Duration certificateReloadInterval = Duration.ofSeconds(10);

		private final Local local = new Local();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getPort() {
			return this.port;
		}

		public void setPort(int port) {
			this.port = port;
		}

		public String getAddress() {
			return this.address;
		}

		public void setAddress(String address) {
			this.address = address;
		}

		public String getCertificateDirectory() {
			return this.certificateDirectory;
		}

		public void setCertificateDirectory(String certificateDirectory) {
			this.certificateDirectory = certificateDirectory;
		}

		public Duration getCertificateReloadInterval() {
			return this.certificateReloadInterval;
		}

		public void setCertificateReloadInterval(Duration certificateReloadInterval) {
			this.certificateReloadInterval = certificateReloadInterval;
		}

		public Local getLocal() {
			return this.local;
		}

		/**
		 * Registration of the webhooks with the API server at startup, for local runs and
		 * tests.
		 */
		public static final class Local {

			/**
			 * Whether to register the webhook configurations (and the conversion of
			 * CustomResourceDefinitions with converters) with the API server at startup,
			 * with a loopback URL and the CA of the certificate made at startup, and to
			 * remove them at shutdown. For local runs and tests; in a cluster the
			 * configurations generated at build time are applied instead.
			 */
			private boolean register;

			/**
			 * Loopback address the API server calls the webhooks on.
			 */
			private String host = "127.0.0.1";

			public boolean isRegister() {
				return this.register;
			}

			public void setRegister(boolean register) {
				this.register = register;
			}

			public String getHost() {
				return this.host;
			}

			public void setHost(String host) {
				this.host = host;
			}

		}

	}

	/**
	 * Kubernetes Events recorded through the EventRecorder.
	 */
	public static final class Events {

		/**
		 * Whether an EventRecorder bean writes Kubernetes Events.
		 */
		private boolean enabled = true;

		/**
		 * Name of the controller that reports the Events, at most 128 characters.
		 * Defaults to the application name, else "kubeop".
		 */
		private String reportingController;

		/**
		 * How many Events may wait to be written; more are dropped.
		 */
		private int queueCapacity = 1000;

		/**
		 * How long one request to write an Event may take.
		 */
		private Duration requestTimeout = Duration.ofSeconds(10);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getReportingController() {
			return this.reportingController;
		}

		public void setReportingController(String reportingController) {
			this.reportingController = reportingController;
		}

		public int getQueueCapacity() {
			return this.queueCapacity;
		}

		public void setQueueCapacity(int queueCapacity) {
			this.queueCapacity = queueCapacity;
		}

		public Duration getRequestTimeout() {
			return this.requestTimeout;
		}

		public void setRequestTimeout(Duration requestTimeout) {
			this.requestTimeout = requestTimeout;
		}

	}

	/**
	 * Sharding: the replicas of the operator split the keys of every handler among
	 * themselves, coordinated through Leases.
	 */
	public static final class Sharding {

		/**
		 * Whether the replicas split the keys among themselves; each key is handled by
		 * one replica at a time.
		 */
		private boolean enabled;

		/**
		 * Name of the shard group: replicas with the same name share the keys. Defaults
		 * to the application name.
		 */
		private String name;

		/**
		 * Namespace of the member and ring Leases. Defaults to the namespace of the
		 * service account when running in a cluster, else "default".
		 */
		private String leaseNamespace;

		/**
		 * Identity of this replica. Defaults to the host name followed by a random
		 * suffix.
		 */
		private String identity;

		/**
		 * How long other replicas wait after the last observed renewal of a replica's
		 * Lease before they take its keys, in whole seconds. Must exceed the renew
		 * deadline by at least the retry period: the difference is the time a replica cut
		 * off from the API server has to stop its calls.
		 */
		private Duration leaseDuration = Duration.ofSeconds(15);

		/**
		 * How long after the start of its last successful renewal a replica gives up
		 * every key if no renewal succeeds; Lease requests are cut off at this deadline.
		 */
		private Duration renewDeadline = Duration.ofSeconds(10);

		/**
		 * How often replicas renew their Leases and look at the ring.
		 */
		private Duration retryPeriod = Duration.ofSeconds(2);

		/**
		 * How many points each replica stands on in the consistent-hash ring; more points
		 * spread keys more evenly.
		 */
		private int virtualNodes = 128;

		/**
		 * How the replicas split the work: "cache-all" (every replica caches every object
		 * and handles its own keys) or "labels" (objects are labelled with their shard
		 * and each replica caches only its own).
		 */
		private Mode mode = Mode.CACHE_ALL;

		/**
		 * Names of the informers whose objects are labelled with their shard and cached
		 * only by their shard's replica, in the "labels" mode: the handlers' informers
		 * and those of the objects they own.
		 */
		private List<String> informers = new ArrayList<>();

		public Mode getMode() {
			return this.mode;
		}

		public void setMode(Mode mode) {
			this.mode = mode;
		}

		public List<String> getInformers() {
			return this.informers;
		}

		public void setInformers(List<String> informers) {
			this.informers = informers;
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getName() {
			return this.name;
		}

		public void setName(String name) {
			this.name = name;
		}

		public String getLeaseNamespace() {
			return this.leaseNamespace;
		}

		public void setLeaseNamespace(String leaseNamespace) {
			this.leaseNamespace = leaseNamespace;
		}

		public String getIdentity() {
			return this.identity;
		}

		public void setIdentity(String identity) {
			this.identity = identity;
		}

		public Duration getLeaseDuration() {
			return this.leaseDuration;
		}

		public void setLeaseDuration(Duration leaseDuration) {
			this.leaseDuration = leaseDuration;
		}

		public Duration getRenewDeadline() {
			return this.renewDeadline;
		}

		public void setRenewDeadline(Duration renewDeadline) {
			this.renewDeadline = renewDeadline;
		}

		public Duration getRetryPeriod() {
			return this.retryPeriod;
		}

		public void setRetryPeriod(Duration retryPeriod) {
			this.retryPeriod = retryPeriod;
		}

		public int getVirtualNodes() {
			return this.virtualNodes;
		}

		public void setVirtualNodes(int virtualNodes) {
			this.virtualNodes = virtualNodes;
		}

		/**
		 * How the replicas split the work.
		 */
		public enum Mode {

			/**
			 * Every replica caches every object and handles the keys the ring gives it.
			 */
			CACHE_ALL,

			/**
			 * Objects are labelled with their shard and each replica caches only its own.
			 */
			LABELS

		}

	}

	public Write getWrite() {
		return this.write;
	}

	/**
	 * Writes through the KubernetesTemplate.
	 */
	public static final class Write {

		/**
		 * Field manager of server-side applies. Defaults to "spring.application.name",
		 * else "kubeop".
		 */
		private String fieldManager;

		/**
		 * Whether server-side applies take over fields owned by other managers, as
		 * controllers do.
		 */
		private boolean forceConflicts = true;

		public String getFieldManager() {
			return this.fieldManager;
		}

		public void setFieldManager(String fieldManager) {
			this.fieldManager = fieldManager;
		}

		public boolean isForceConflicts() {
			return this.forceConflicts;
		}

		public void setForceConflicts(boolean forceConflicts) {
			this.forceConflicts = forceConflicts;
		}

	}

	/**
	 * The "informers" health contributor.
	 */
	public static final class Health {

		/**
		 * How long a list or watch may keep failing before the informers are reported
		 * DOWN.
		 */
		private Duration watchFailureThreshold = Duration.ofSeconds(60);

		/**
		 * Whether the "informers" contributor joins the readiness health group (never the
		 * liveness group).
		 */
		private boolean readiness = true;

		public Duration getWatchFailureThreshold() {
			return this.watchFailureThreshold;
		}

		public void setWatchFailureThreshold(Duration watchFailureThreshold) {
			this.watchFailureThreshold = watchFailureThreshold;
		}

		public boolean isReadiness() {
			return this.readiness;
		}

		public void setReadiness(boolean readiness) {
			this.readiness = readiness;
		}

	}

	/**
	 * Leader election on a coordination.k8s.io/v1 Lease: every replica keeps warm caches,
	 * only the leader runs handler workers.
	 */
	public static final class LeaderElection {

		/**
		 * Whether handler workers run only on the replica that holds the lease.
		 */
		private boolean enabled;

		/**
		 * Name of the Lease. Defaults to the application name followed by "-leader".
		 */
		private String leaseName;

		/**
		 * Namespace of the Lease. Defaults to the namespace of the service account when
		 * running in a cluster, else "default".
		 */
		private String leaseNamespace;

		/**
		 * Identity of this replica. Defaults to the host name followed by a random
		 * suffix.
		 */
		private String identity;

		/**
		 * How long other replicas wait after the last observed renewal before they take
		 * over.
		 */
		private Duration leaseDuration = Duration.ofSeconds(15);

		/**
		 * How long after the start of its last successful renewal the leader gives up
		 * leadership if no renewal succeeds; lease requests are cut off at this deadline.
		 * Between it and the lease duration, running handler calls are interrupted and
		 * must end.
		 */
		private Duration renewDeadline = Duration.ofSeconds(10);

		/**
		 * How often acquiring and renewing are tried.
		 */
		private Duration retryPeriod = Duration.ofSeconds(2);

		/**
		 * Whether the application exits (status 1) when it loses leadership, as a
		 * controller-runtime manager does, instead of stopping its handler calls and
		 * competing for the lease again. Running calls are interrupted either way.
		 */
		private boolean exitOnLoss;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getLeaseName() {
			return this.leaseName;
		}

		public void setLeaseName(String leaseName) {
			this.leaseName = leaseName;
		}

		public String getLeaseNamespace() {
			return this.leaseNamespace;
		}

		public void setLeaseNamespace(String leaseNamespace) {
			this.leaseNamespace = leaseNamespace;
		}

		public String getIdentity() {
			return this.identity;
		}

		public void setIdentity(String identity) {
			this.identity = identity;
		}

		public Duration getLeaseDuration() {
			return this.leaseDuration;
		}

		public void setLeaseDuration(Duration leaseDuration) {
			this.leaseDuration = leaseDuration;
		}

		public Duration getRenewDeadline() {
			return this.renewDeadline;
		}

		public void setRenewDeadline(Duration renewDeadline) {
			this.renewDeadline = renewDeadline;
		}

		public Duration getRetryPeriod() {
			return this.retryPeriod;
		}

		public void setRetryPeriod(Duration retryPeriod) {
			this.retryPeriod = retryPeriod;
		}

		public boolean isExitOnLoss() {
			return this.exitOnLoss;
		}

		public void setExitOnLoss(boolean exitOnLoss) {
			this.exitOnLoss = exitOnLoss;
		}

	}

	/**
	 * Handler queues and workers.
	 */
	public static final class Handlers {

		/**
		 * Whether methods annotated with @OnAdd, @OnUpdate and @OnDelete are called.
		 */
		private boolean enabled = true;

		/**
		 * Number of workers per handler, each handling one key at a time.
		 */
		private int workers = 1;

		/**
		 * How long running handler calls may take to finish on shutdown.
		 */
		private Duration shutdownTimeout = Duration.ofSeconds(30);

		/**
		 * How long one handler call may run; a call past it has its worker thread
		 * interrupted and is retried with back-off. Zero for no limit.
		 */
		private Duration callTimeout = Duration.ofMinutes(5);

		/**
		 * Retry back-off of every handler.
		 */
		private final RateLimiter rateLimiter = new RateLimiter();

		/**
		 * Whether handler queues order keys by priority: every real change before the
		 * objects queued because a handler started, was activated or resynced.
		 */
		private boolean priorities = true;

		/**
		 * How keys of a handler queue take turns: none (in the order queued), namespace
		 * (round-robin across namespaces) or label (round-robin across the values of
		 * partition-label).
		 */
		private QueueSettings.Fairness fairness = QueueSettings.Fairness.NONE;

		/**
		 * Label whose values are the lanes when fairness is label, such as
		 * example.com/tenant.
		 */
		private String partitionLabel;

		/**
		 * Settings of single handlers, by handler name (the bean name).
		 */
		private Map<String, Handler> controllers = new LinkedHashMap<>();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getWorkers() {
			return this.workers;
		}

		public void setWorkers(int workers) {
			this.workers = workers;
		}

		public Duration getShutdownTimeout() {
			return this.shutdownTimeout;
		}

		public void setShutdownTimeout(Duration shutdownTimeout) {
			this.shutdownTimeout = shutdownTimeout;
		}

		public Duration getCallTimeout() {
			return this.callTimeout;
		}

		public void setCallTimeout(Duration callTimeout) {
			this.callTimeout = callTimeout;
		}

		public RateLimiter getRateLimiter() {
			return this.rateLimiter;
		}

		public boolean isPriorities() {
			return this.priorities;
		}

		public void setPriorities(boolean priorities) {
			this.priorities = priorities;
		}

		public QueueSettings.Fairness getFairness() {
			return this.fairness;
		}

		public void setFairness(QueueSettings.Fairness fairness) {
			this.fairness = fairness;
		}

		public String getPartitionLabel() {
			return this.partitionLabel;
		}

		public void setPartitionLabel(String partitionLabel) {
			this.partitionLabel = partitionLabel;
		}

		public Map<String, Handler> getControllers() {
			return this.controllers;
		}

		public void setControllers(Map<String, Handler> controllers) {
			this.controllers = controllers;
		}

	}

	/**
	 * Settings of one handler.
	 */
	public static final class Handler {

		/**
		 * Number of workers of this handler. Defaults to kubeop.handlers.workers.
		 */
		private Integer workers;

		/**
		 * Retry back-off of this handler. Unset values default to
		 * kubeop.handlers.rate-limiter.
		 */
		private final RateLimiter rateLimiter = RateLimiter.unset();

		/**
		 * Whether this handler's queue orders keys by priority. Defaults to the
		 * handler's @HandlerQueue, then kubeop.handlers.priorities.
		 */
		private Boolean priorities;

		/**
		 * How keys of this handler's queue take turns. Defaults to the
		 * handler's @HandlerQueue, then kubeop.handlers.fairness.
		 */
		private QueueSettings.Fairness fairness;

		/**
		 * Label whose values are the lanes when fairness is label. Defaults to the
		 * handler's @HandlerQueue, then kubeop.handlers.partition-label.
		 */
		private String partitionLabel;

		/**
		 * How long one call of this handler may run before it is interrupted and retried
		 * with back-off; zero for no limit. Defaults to kubeop.handlers.call-timeout.
		 */
		private Duration callTimeout;

		public Integer getWorkers() {
			return this.workers;
		}

		public void setWorkers(Integer workers) {
			this.workers = workers;
		}

		public Boolean getPriorities() {
			return this.priorities;
		}

		public void setPriorities(Boolean priorities) {
			this.priorities = priorities;
		}

		public QueueSettings.Fairness getFairness() {
			return this.fairness;
		}

		public void setFairness(QueueSettings.Fairness fairness) {
			this.fairness = fairness;
		}

		public String getPartitionLabel() {
			return this.partitionLabel;
		}

		public void setPartitionLabel(String partitionLabel) {
			this.partitionLabel = partitionLabel;
		}

		public Duration getCallTimeout() {
			return this.callTimeout;
		}

		public void setCallTimeout(Duration callTimeout) {
			this.callTimeout = callTimeout;
		}

		public RateLimiter getRateLimiter() {
			return this.rateLimiter;
		}

	}

	/**
	 * Retry back-off: per-key exponential delay, combined (the larger wins) with an
	 * overall token bucket, as client-go's default controller rate limiter.
	 */
	public static final class RateLimiter {

		/**
		 * Delay before the first retry of a key; doubled on each further failure.
		 */
		private Duration baseDelay = Duration.ofMillis(5);

		/**
		 * Longest delay between retries of a key.
		 */
		private Duration maxDelay = Duration.ofSeconds(1000);

		/**
		 * Retries per second across all keys of a handler.
		 */
		private Double qps = 10.0;

		/**
		 * Retries allowed at once before the per-second rate applies.
		 */
		private Integer burst = 100;

		/**
		 * A rate limiter whose values are all unset, so that each falls back to
		 * kubeop.handlers.rate-limiter. The defaults are field initialisers (not
		 * constructor arguments) so that the configuration processor puts them in the
		 * metadata.
		 * @return a rate limiter without values
		 */
		static RateLimiter unset() {
			RateLimiter unset = new RateLimiter();
			unset.baseDelay = null;
			unset.maxDelay = null;
			unset.qps = null;
			unset.burst = null;
			return unset;
		}

		public Duration getBaseDelay() {
			return this.baseDelay;
		}

		public void setBaseDelay(Duration baseDelay) {
			this.baseDelay = baseDelay;
		}

		public Duration getMaxDelay() {
			return this.maxDelay;
		}

		public void setMaxDelay(Duration maxDelay) {
			this.maxDelay = maxDelay;
		}

		public Double getQps() {
			return this.qps;
		}

		public void setQps(Double qps) {
			this.qps = qps;
		}

		public Integer getBurst() {
			return this.burst;
		}

		public void setBurst(Integer burst) {
			this.burst = burst;
		}

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
		 * How long a watch may deliver nothing before it is taken for dead and replaced,
		 * once the API server has sent it a bookmark (it sends one every minute from its
		 * watch cache; without a watch cache it sends none, and only pings find a dead
		 * connection). At least 90s, or 0 to rely on pings alone.
		 */
		private Duration stallTimeout = Duration.ofSeconds(150);

		/**
		 * How often the HTTP/2 connection of a watch is pinged; a connection that does
		 * not answer before the next ping is taken for dead and the watch replaced, as
		 * client-go's HTTP/2 health check does. 0 disables pings.
		 */
		private Duration pingInterval = Duration.ofSeconds(30);

		/**
		 * The encoding lists and watches ask the API server for: 'protobuf' (the default)
		 * for the built-in kinds, as client-go does (custom resources, metadata-only
		 * informers, and a server that answers JSON, are read as JSON), or 'json'.
		 */
		// named, not InformerSpec.Encoding.DEFAULT: the configuration processor writes
		// the name of the constant it sees as the default ('default')
		private InformerSpec.Encoding encoding = InformerSpec.Encoding.PROTOBUF;

		/**
		 * Number of objects per page of an initial list.
		 */
		private int pageSize = 500;

		/**
		 * How informers read the state they start from, initially and after a watch could
		 * not resume: "watch-list" (a watch that first sends every object, as client-go
		 * does by default, and falls back to "list" when the API server refuses it) or
		 * "list" (a paged list, then a watch). Either way objects go into the cache as
		 * they arrive.
		 */
		private ListStrategy listStrategy = ListStrategy.WATCH_LIST;

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

		public Duration getStallTimeout() {
			return this.stallTimeout;
		}

		public void setStallTimeout(Duration stallTimeout) {
			this.stallTimeout = stallTimeout;
		}

		public Duration getPingInterval() {
			return this.pingInterval;
		}

		public void setPingInterval(Duration pingInterval) {
			this.pingInterval = pingInterval;
		}

		public InformerSpec.Encoding getEncoding() {
			return this.encoding;
		}

		public void setEncoding(InformerSpec.Encoding encoding) {
			this.encoding = encoding;
		}

		public int getPageSize() {
			return this.pageSize;
		}

		public void setPageSize(int pageSize) {
			this.pageSize = pageSize;
		}

		public ListStrategy getListStrategy() {
			return this.listStrategy;
		}

		public void setListStrategy(ListStrategy listStrategy) {
			this.listStrategy = listStrategy;
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
		 * Whether the strings that many cached objects repeat (namespaces, label and
		 * annotation keys and values, images, node names, owner references) are kept once
		 * for all of them instead of once per object. The objects keep every value.
		 */
		private boolean lean = true;

		/**
		 * The encoding this informer's lists and watches ask for, 'protobuf' or 'json';
		 * kubeop.informers.encoding when not set.
		 */
		private InformerSpec.Encoding encoding;

		/**
		 * Names of IndexFunction beans whose indexes the cache keeps; the bean name is
		 * the index name.
		 */
		private List<String> indexers = new ArrayList<>();

		/**
		 * Whether only the metadata of objects is listed, watched and cached, as
		 * io.github.kubeop.informer.PartialObjectMetadata (the API server's
		 * PartialObjectMetadata): labels, annotations, owner references, but no spec,
		 * status or data.
		 */
		private boolean metadataOnly;

		/**
		 * Transforms applied to every object before it is cached, in order: the
		 * ready-made "strip-managed-fields", "strip-last-applied-configuration" and
		 * "strip-status", or names of TransformFunction beans.
		 */
		private List<String> transforms = new ArrayList<>();

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

		public boolean isLean() {
			return this.lean;
		}

		public void setLean(boolean lean) {
			this.lean = lean;
		}

		public InformerSpec.Encoding getEncoding() {
			return this.encoding;
		}

		public void setEncoding(InformerSpec.Encoding encoding) {
			this.encoding = encoding;
		}

		public List<String> getIndexers() {
			return this.indexers;
		}

		public void setIndexers(List<String> indexers) {
			this.indexers = indexers;
		}

		public boolean isMetadataOnly() {
			return this.metadataOnly;
		}

		public void setMetadataOnly(boolean metadataOnly) {
			this.metadataOnly = metadataOnly;
		}

		public List<String> getTransforms() {
			return this.transforms;
		}

		public void setTransforms(List<String> transforms) {
			this.transforms = transforms;
		}

	}

}
