package ${package};

import java.util.Map;

import io.github.kubeop.annotation.Owns;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.write.KubernetesTemplate;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

import org.springframework.stereotype.Component;

/**
 * Keeps a ConfigMap with each greeting's message. The greeting owns the ConfigMap, so a
 * change to the ConfigMap calls {@link #reconcile} again ({@code @Owns}, which needs no
 * informer entry), and the cluster's garbage collector deletes it with the greeting.
 */
@Component
@Owns(V1ConfigMap.class)
class GreetingReconciler {

	private final KubernetesTemplate kubernetes;

	GreetingReconciler(KubernetesTemplate kubernetes) {
		this.kubernetes = kubernetes;
	}

	/**
	 * Called with the current greeting after every change, and again until it returns
	 * without an exception.
	 * @param greeting the greeting, from the cache
	 * @throws ApiException if a write fails: the call is retried with back-off
	 */
	@Reconcile
	void reconcile(Greeting greeting) throws ApiException {
		String name = greeting.getMetadata().getName() + "-greeting";
		// server-side apply; the greeting becomes the ConfigMap's controller owner
		this.kubernetes.apply(new V1ConfigMap()
			.metadata(new V1ObjectMeta().name(name).namespace(greeting.getMetadata().getNamespace()))
			.data(Map.of("message", greeting.getSpec().message())));
		// written only when it changed
		this.kubernetes.applyStatus(greeting, new Greeting.Status(null, name));
	}

}
