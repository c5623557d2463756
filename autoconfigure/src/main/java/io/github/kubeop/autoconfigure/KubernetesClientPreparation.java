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

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceDiscovery;
import io.github.kubeop.informer.UnknownResourceException;
import io.kubernetes.client.openapi.ApiClient;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.SingletonBeanRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The client that {@link KubeopClientAutoConfiguration} would build from the
 * {@code kubeop.client} properties, built on a thread of its own as soon as the informer
 * properties are bound, with the discovery of the informers' resources (the first TLS
 * handshake with the API server) and the JSON adapters of their types: on the main
 * thread, these took about two thirds of Kubeop's start-up, while the main thread still
 * had seconds of the context's refresh (the web server, the other beans) to do that need
 * none of them.
 * <p>
 * The client bean takes the prepared client only if it would have built the same one: it
 * is Kubeop's bean (no user {@code ApiClient}), the connection details are Kubeop's or
 * the only ones and registered as a ready-made singleton (as {@code @KubeopOperatorTest}
 * registers the control plane's; a user's connection details bean is not created early),
 * and the connection details the client bean is given are those the preparation read.
 * Failures are the client bean's: building the client again on the main thread reports
 * them as before, and a discovery that failed here is made again by the informer beans,
 * which report it.
 *
 * @author Kubeop authors
 */
final class KubernetesClientPreparation implements DisposableBean {

	static final String BEAN = "kubeopKubernetesClientPreparation";

	/** The system property Spring's AOT processor sets while it processes. */
	private static final String AOT_PROCESSING = "spring.aot.processing";

	private static final String CLIENT_CONFIGURATION = KubeopClientAutoConfiguration.class.getName();

	private final KubernetesConnectionDetails connectionDetails;

	private final CompletableFuture<Prepared> prepared;

	/** The prepared client, once the client bean has taken it. */
	private volatile ApiClient taken;

	private KubernetesClientPreparation(KubernetesConnectionDetails connectionDetails, InformerSpecs specs) {
		this.connectionDetails = connectionDetails;
		this.prepared = new CompletableFuture<>();
		Thread thread = new Thread(() -> prepare(specs), "kubeop-client-preparation");
		thread.setDaemon(true);
		thread.start();
	}

	/**
	 * Starts preparing the client if Kubeop's auto-configuration builds it from its
	 * properties, registering the preparation as a singleton of the registry.
	 * @param registry the registry, which holds the bean definitions once the
	 * auto-configuration's conditions have been evaluated
	 * @param environment the environment
	 * @param specs the informers
	 * @return whether the preparation runs
	 */
	static boolean start(BeanDefinitionRegistry registry, Environment environment, InformerSpecs specs) {
		// Spring's AOT processor refreshes the application at build time, where nothing
		// may reach for a cluster
		if (Boolean.getBoolean(AOT_PROCESSING)) {
			return false;
		}
		if (!(registry instanceof SingletonBeanRegistry singletons)) {
			return false;
		}
		if (singletons.containsSingleton(BEAN)) {
			return true;
		}
		if (!isKubeops(registry, "kubernetesApiClient")) {
			return false;
		}
		KubernetesConnectionDetails connectionDetails;
		if (isKubeops(registry, "kubernetesConnectionDetails")) {
			try {
				KubeopProperties.Client properties = Binder.get(environment)
					.bind("kubeop.client", Bindable.of(KubeopProperties.Client.class))
					.orElseGet(KubeopProperties.Client::new);
				connectionDetails = KubeopClientAutoConfiguration.connectionDetails(properties);
			}
			catch (RuntimeException ex) {
				// the connection details bean reports it
				return false;
			}
		}
		else {
			connectionDetails = registeredConnectionDetails(registry, singletons);
			if (connectionDetails == null) {
				return false;
			}
		}
		KubernetesClientPreparation preparation = new KubernetesClientPreparation(connectionDetails, specs);
		singletons.registerSingleton(BEAN, preparation);
		// a registered singleton gets no destroy callback of its own: without this, a
		// context that failed or closed before the client bean took the client leaked
		// its connections and its dispatcher's threads
		if (singletons instanceof DefaultSingletonBeanRegistry defaults) {
			defaults.registerDisposableBean(BEAN, preparation);
		}
		return true;
	}

	/**
	 * Closes the prepared client unless the client bean took it (then its configuration
	 * closes it), once the preparation has made it.
	 */
	@Override
	public void destroy() {
		this.prepared.thenAccept((prepared) -> {
			if (prepared.client() != this.taken) {
				close(prepared);
			}
		});
	}

	/**
	 * Returns the prepared client if it is the one these connection details give, waiting
	 * for it; otherwise builds the client here.
	 * @param beanFactory the bean factory
	 * @param connectionDetails the connection details
	 * @return the client
	 * @throws IOException if the kubeconfig cannot be read
	 */
	static ApiClient client(BeanFactory beanFactory, KubernetesConnectionDetails connectionDetails) throws IOException {
		KubernetesClientPreparation preparation = of(beanFactory);
		if (preparation != null) {
			if (preparation.matches(connectionDetails)) {
				Prepared prepared = preparation.await();
				if (prepared.client() != null) {
					preparation.taken = prepared.client();
					return prepared.client();
				}
			}
			else {
				// not the client this context uses: its connections are not kept
				preparation.prepared.thenAccept(KubernetesClientPreparation::close);
			}
		}
		return KubeopClientAutoConfiguration.buildClient(connectionDetails);
	}

	/**
	 * Returns the prepared discovery of a client, with the informers' resources found so
	 * far, or a new one.
	 * @param beanFactory the bean factory
	 * @param client the client
	 * @return the discovery
	 */
	static ResourceDiscovery discovery(BeanFactory beanFactory, ApiClient client) {
		KubernetesClientPreparation preparation = of(beanFactory);
		if (preparation != null && preparation.taken == client) {
			Prepared prepared = preparation.await();
			if (prepared.discovery() != null) {
				return prepared.discovery();
			}
		}
		return new ResourceDiscovery(client);
	}

	/**
	 * Waits for the preparation of a bean factory, for tests.
	 * @param beanFactory the bean factory
	 * @return what it made, or {@code null} if nothing was prepared
	 */
	static Prepared awaitPrepared(BeanFactory beanFactory) {
		KubernetesClientPreparation preparation = of(beanFactory);
		return (preparation != null) ? preparation.await() : null;
	}

	private static KubernetesClientPreparation of(BeanFactory beanFactory) {
		return (beanFactory instanceof SingletonBeanRegistry singletons
				&& singletons.getSingleton(BEAN) instanceof KubernetesClientPreparation preparation) ? preparation
						: null;
	}

	/**
	 * Returns the connection details registered as a ready-made singleton, as
	 * {@code @KubeopOperatorTest} registers the control plane's, if they are the only
	 * ones: a bean that is only defined is never created early, here.
	 */
	private static KubernetesConnectionDetails registeredConnectionDetails(BeanDefinitionRegistry registry,
			SingletonBeanRegistry singletons) {
		if (!(registry instanceof ListableBeanFactory beanFactory)) {
			return null;
		}
		String[] names = beanFactory.getBeanNamesForType(KubernetesConnectionDetails.class, true, false);
		if (names.length != 1 || registry.containsBeanDefinition(names[0])) {
			return null;
		}
		return (singletons.getSingleton(names[0]) instanceof KubernetesConnectionDetails registered) ? registered
				: null;
	}

	/**
	 * Returns whether the bean is defined by Kubeop's client auto-configuration: a user's
	 * bean of the type (or one that a service connection defines) turns it off.
	 */
	private static boolean isKubeops(BeanDefinitionRegistry registry, String beanName) {
		if (!registry.containsBeanDefinition(beanName)) {
			return false;
		}
		BeanDefinition definition = registry.getBeanDefinition(beanName);
		// the AOT engine writes the factory bean, not the method, into the definitions
		return CLIENT_CONFIGURATION.equals(definition.getFactoryBeanName())
				&& (definition.getFactoryMethodName() == null || beanName.equals(definition.getFactoryMethodName()));
	}

	private boolean matches(KubernetesConnectionDetails other) {
		return Objects.equals(this.connectionDetails.kubeconfig(), other.kubeconfig())
				&& Objects.equals(this.connectionDetails.context(), other.context())
				&& Objects.equals(this.connectionDetails.kubeconfigFile(), other.kubeconfigFile());
	}

	private Prepared await() {
		try {
			return this.prepared.join();
		}
		catch (CompletionException ex) {
			return new Prepared(null, null);
		}
	}

	private void prepare(InformerSpecs specs) {
		ApiClient client;
		try {
			client = KubeopClientAutoConfiguration.buildClient(this.connectionDetails);
		}
		catch (Throwable ex) {
			// the client bean builds it again and reports what went wrong; an Error too
			// must complete the preparation, or the main thread would wait for it forever
			this.prepared.complete(new Prepared(null, null));
			return;
		}
		try {
			this.prepared.complete(new Prepared(client, discover(client, specs)));
		}
		catch (Throwable ex) {
			// an Error (such as a type's adapter whose static initializer failed): the
			// client bean builds the client again on the main thread, which meets it
			// itself
			close(new Prepared(client, null));
			this.prepared.completeExceptionally(ex);
		}
	}

	private ResourceDiscovery discover(ApiClient client, InformerSpecs specs) {
		ResourceDiscovery discovery = new ResourceDiscovery(client);
		for (String name : specs.names()) {
			InformerSpec<?> spec = specs.spec(name);
			try {
				client.getJSON().getGson().getAdapter(spec.type());
				discovery.resolve(spec.apiVersion(), spec.kind());
			}
			catch (UnknownResourceException ex) {
				// the informer bean resolves it again and reports it
			}
			catch (RuntimeException ex) {
				// a server that cannot be reached (or refuses): the informer beans find
				// out themselves, and waiting for a timeout per informer here would only
				// delay it
				break;
			}
		}
		return discovery;
	}

	private static void close(Prepared prepared) {
		try {
			KubeopClientAutoConfiguration.close(prepared.client());
		}
		catch (IOException ex) {
			// nothing was cached on disk by a client that made only discovery requests
		}
	}

	/**
	 * What the preparation made.
	 *
	 * @param client the client, or {@code null} if it could not be built
	 * @param discovery the discovery, or {@code null}
	 */
	record Prepared(ApiClient client, ResourceDiscovery discovery) {
	}

}
