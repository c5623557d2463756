package ${package};

import java.time.Duration;
import java.util.Map;

import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.autoconfigure.KubeopOperatorTest;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The operator against a real kube-apiserver and etcd: {@code @KubeopOperatorTest} starts
 * them (once per test run), applies the generated CRD, then starts the application. Each
 * test class gets a namespace of its own; {@code admin} is a client with every right.
 */
@KubeopOperatorTest(manifests = "target/classes/META-INF/kubeop/crds/greetings.${resourceGroup}.yaml")
class GreetingReconcilerTests {

	@Test
	void aGreetingGetsAConfigMapWithItsMessageAndAStatus(ApiClient admin, TestNamespace namespace) {
		new Manifests(admin).apply("""
				apiVersion: ${resourceGroup}/v1alpha1
				kind: Greeting
				metadata:
				  name: hello
				spec:
				  message: Hello, Kubernetes
				""", namespace.name());
		CoreV1Api core = new CoreV1Api(admin);
		await().atMost(Duration.ofSeconds(30))
			.ignoreExceptions()
			.untilAsserted(() -> assertThat(
					core.readNamespacedConfigMap("hello-greeting", namespace.name()).execute().getData())
				.containsEntry("message", "Hello, Kubernetes"));
		CustomObjectsApi custom = new CustomObjectsApi(admin);
		await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
			Map<?, ?> greeting = (Map<?, ?>) custom
				.getNamespacedCustomObject("${resourceGroup}", "v1alpha1", namespace.name(), "greetings", "hello")
				.execute();
			Map<?, ?> status = (Map<?, ?>) greeting.get("status");
			assertThat(status.get("configMap")).isEqualTo("hello-greeting");
			assertThat(((Number) status.get("observedGeneration")).longValue()).isEqualTo(1);
		});
	}

}
