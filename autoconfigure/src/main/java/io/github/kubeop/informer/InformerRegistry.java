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

package io.github.kubeop.informer;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import io.github.kubeop.resource.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;

/**
 * The informers of an application, one per resource, scope and selectors: asking twice
 * for the same {@link InformerSpec#sharingKey() sharing key} returns the same informer,
 * so that one list and watch serves every consumer. Two scopes of one Java type are two
 * informers (the official client's factory keeps one informer per class).
 *
 * @author Kubeop authors
 */
public class InformerRegistry {

	private final ApiClient client;

	private final ResourceDiscovery discovery;

	/**
	 * One per API server: its informers learn together that it is back, and share its
	 * pinged connections.
	 */
	private final ServerReachability reachability = new ServerReachability();

	private final Map<InformerSpec.SharingKey, ResourceInformer<?>> informers = new LinkedHashMap<>();

	private final Map<String, ResourceInformer<?>> byName = new LinkedHashMap<>();

	private final List<Consumer<ResourceInformer<?>>> listeners = new ArrayList<>();

	private ScheduledExecutorService scheduler;

	private boolean started;

	private ListStrategy listStrategy = ListStrategy.WATCH_LIST;

	/**
	 * Creates a new registry.
	 * @param client the client informers list and watch with
	 */
	public InformerRegistry(ApiClient client) {
		this(client, new ResourceDiscovery(client));
	}

	/**
	 * Creates a new registry that resolves resources with a discovery made before, such
	 * as one that already holds the resources of the informers to come.
	 * @param client the client informers list and watch with
	 * @param discovery the discovery of the same client
	 */
	public InformerRegistry(ApiClient client, ResourceDiscovery discovery) {
		this.client = client;
		this.discovery = discovery;
	}

	/**
	 * Sets how informers created from now on list: {@link ListStrategy#WATCH_LIST} by
	 * default.
	 * @param listStrategy the list strategy
	 */
	public synchronized void setListStrategy(ListStrategy listStrategy) {
		this.listStrategy = listStrategy;
	}

	/**
	 * Returns how informers created from now on list.
	 * @return the list strategy
	 */
	public synchronized ListStrategy listStrategy() {
		return this.listStrategy;
	}

	/**
	 * Returns the informer for a spec, creating it on first use; informers created after
	 * {@link #start()} start at once.
	 * @param <T> the Java type of the objects
	 * @param spec what to watch
	 * @return the shared informer
	 * @throws UnknownResourceException if the API server does not serve the resource
	 */
	@SuppressWarnings("unchecked")
	public synchronized <T extends KubernetesObject> ResourceInformer<T> informer(InformerSpec<T> spec) {
		ResourceInformer<T> informer = (ResourceInformer<T>) this.informers.get(spec.sharingKey());
		if (informer == null) {
			ResourceKind resource = resolve(spec);
			informer = new ResourceInformer<>(spec, resource, this.client, this.listStrategy, this.reachability);
			this.informers.put(spec.sharingKey(), informer);
			for (Consumer<ResourceInformer<?>> listener : this.listeners) {
				listener.accept(informer);
			}
			if (this.started) {
				informer.start(this.scheduler);
			}
		}
		else {
			spec.indexers().forEach(informer::addIndexer);
		}
		this.byName.putIfAbsent(spec.name(), informer);
		return informer;
	}

	private ResourceKind resolve(InformerSpec<?> spec) {
		try {
			return this.discovery.resolve(spec.apiVersion(), spec.kind());
		}
		catch (UnknownResourceException ex) {
			if (ResourceType.isCustomResource(spec.type())) {
				throw new CustomResourceDefinitionNotFoundException(spec.type(), ex);
			}
			throw ex;
		}
	}

	/**
	 * Returns the client informers list and watch with.
	 * @return the client
	 */
	public ApiClient client() {
		return this.client;
	}

	/**
	 * Returns the discovery this registry resolves resources with.
	 * @return the discovery
	 */
	public ResourceDiscovery discovery() {
		return this.discovery;
	}

	/**
	 * Returns the informer registered under a name.
	 * @param name the informer name
	 * @return the informer, or {@code null}
	 */
	public synchronized ResourceInformer<?> informer(String name) {
		return this.byName.get(name);
	}

	/**
	 * Calls a listener with every informer: those that exist now, at once, and those
	 * created later, before they start (so that, for example, their meters exist before
	 * their first event).
	 * @param listener told of each informer, under this registry's lock: it must be quick
	 * and must not create informers
	 */
	public synchronized void forEachInformer(Consumer<ResourceInformer<?>> listener) {
		this.informers.values().forEach(listener);
		this.listeners.add(listener);
	}

	/**
	 * Returns every informer.
	 * @return the informers, in registration order
	 */
	public synchronized Collection<ResourceInformer<?>> informers() {
		return List.copyOf(this.informers.values());
	}

	/**
	 * Starts every informer.
	 */
	public synchronized void start() {
		if (this.started) {
			return;
		}
		this.scheduler = Executors.newSingleThreadScheduledExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "kubeop-informer-resync");
			thread.setDaemon(true);
			return thread;
		});
		this.informers.values().forEach((informer) -> informer.start(this.scheduler));
		this.started = true;
	}

	/**
	 * Waits until every informer has synced.
	 * @param timeout how long to wait
	 * @throws CacheSyncTimeoutException if some informer did not sync in time
	 * @throws InformerStartupException if an informer cannot work as configured (a
	 * malformed selector, no permission to list or watch)
	 */
	public void awaitSync(Duration timeout) {
		Instant deadline = Instant.now().plus(timeout);
		while (true) {
			List<ResourceInformer<?>> pending = informers().stream()
				.filter((informer) -> !informer.hasSynced())
				.toList();
			if (pending.isEmpty()) {
				return;
			}
			for (ResourceInformer<?> informer : pending) {
				InformerException failure = informer.startupFailure();
				if (failure != null) {
					throw new InformerStartupException(informer.spec().name(), informer.toString(),
							failure.getMessage(), failure);
				}
			}
			if (Instant.now().isAfter(deadline)) {
				throw new CacheSyncTimeoutException(timeout,
						pending.stream()
							.map((informer) -> informer + ": " + describe(informer.status()))
							.collect(Collectors.toList()));
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new InformerException("Interrupted while waiting for informers to sync", ex);
			}
		}
	}

	/**
	 * Stops every informer.
	 */
	public synchronized void stop() {
		if (!this.started) {
			return;
		}
		new ArrayList<>(this.informers.values()).forEach(ResourceInformer::stop);
		this.scheduler.shutdownNow();
		this.started = false;
	}

	/**
	 * Returns whether the registry is started.
	 * @return whether informers run
	 */
	public synchronized boolean isStarted() {
		return this.started;
	}

	private static String describe(InformerStatus status) {
		return status.state().name().toLowerCase()
				+ ((status.lastError() != null) ? ", last error: " + status.lastError() : ", no error reported");
	}

}
