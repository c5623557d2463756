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

import java.io.File;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.List;

import io.github.kubeop.maven.verify.Quota;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.controlplane.ControlPlane;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The {@code verify-crds} goal with the cluster of a kubeconfig, here the test control
 * plane's: the build fails naming the class, the field and the rule the API server
 * refuses.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class VerifyCrdsMojoIntegrationTests {

	@Test
	void buildFailsNamingClassFieldAndRuleTheApiServerRefuses(ControlPlane controlPlane) throws Exception {
		VerifyCrdsMojo mojo = mojo(controlPlane.kubeconfigFile().toFile());
		assertThatExceptionOfType(MojoFailureException.class).isThrownBy(mojo::execute)
			.withMessageContaining("The API server refuses the CustomResourceDefinition quotas.mojo.kubeop.test of "
					+ Quota.class.getName())
			.withMessageContaining("rule \"self.all(o, o.matches('^[a-z]+@example[.]com$'))\" on field 'owners' of "
					+ Quota.Spec.class.getName() + ": Forbidden: estimated rule cost exceeds budget");
	}

	@Test
	void missingKubeconfigFailsNamingTheFile(@TempDir Path directory) throws Exception {
		File missing = directory.resolve("kubeconfig").toFile();
		assertThatExceptionOfType(MojoExecutionException.class).isThrownBy(mojo(missing)::execute)
			.withMessageContaining("there is no kubeconfig at " + missing);
	}

	private static VerifyCrdsMojo mojo(File kubeconfig) throws Exception {
		File classes = new File(Quota.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		MavenProject project = new MavenProject();
		project.getBuild().setOutputDirectory(classes.getPath());
		VerifyCrdsMojo mojo = new VerifyCrdsMojo();
		set(mojo, "project", project);
		set(mojo, "classesDirectory", classes);
		set(mojo, "packages", List.of(Quota.class.getPackageName()));
		set(mojo, "useKubeconfig", true);
		set(mojo, "kubeconfig", kubeconfig);
		return mojo;
	}

	// as Maven injects the parameters
	private static void set(VerifyCrdsMojo mojo, String name, Object value) throws Exception {
		Field field = VerifyCrdsMojo.class.getDeclaredField(name);
		field.setAccessible(true);
		field.set(mojo, value);
	}

}
