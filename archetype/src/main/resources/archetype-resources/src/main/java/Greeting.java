package ${package};

import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.KubernetesResource;
import jakarta.validation.constraints.NotBlank;

/**
 * The operator's custom resource. The kubeop-maven-plugin generates its
 * CustomResourceDefinition ({@code greetings.${resourceGroup}}) from this class, with the
 * validation of its fields, at build time.
 */
@KubernetesResource(group = "${resourceGroup}", version = "v1alpha1")
public class Greeting extends CustomResource<Greeting.Spec, Greeting.Status> {

	/**
	 * What the user asks for.
	 *
	 * @param message the text to publish
	 */
	public record Spec(@NotBlank String message) {

	}

	/**
	 * What the operator reports back.
	 *
	 * @param observedGeneration the generation of the spec last reconciled, set by Kubeop
	 * @param configMap the name of the ConfigMap that holds the message
	 */
	public record Status(Long observedGeneration, String configMap) {

	}

}
