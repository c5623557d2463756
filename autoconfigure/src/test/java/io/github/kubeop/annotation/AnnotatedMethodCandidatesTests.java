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

package io.github.kubeop.annotation;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Set;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.Test;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.AopUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AnnotatedMethodCandidates}: the quick test that lets the handler and
 * webhook post-processors skip most beans must never skip a class whose handler methods
 * the full search finds (on a superclass, an interface, or through a composed
 * annotation).
 *
 * @author Kubeop authors
 */
class AnnotatedMethodCandidatesTests {

	private final AnnotatedMethodCandidates candidates = new AnnotatedMethodCandidates(
			Set.of(OnAdd.class, OnUpdate.class, OnDelete.class, Reconcile.class, Cleanup.class));

	@Test
	void aClassWithoutAnnotatedMethodsIsNoCandidate() {
		assertThat(this.candidates.mayDeclare(Plain.class)).isFalse();
		assertThat(this.candidates.mayDeclare(String.class)).isFalse();
		assertThat(this.candidates.mayDeclare(null)).isFalse();
	}

	@Test
	void aClassWithAnAnnotatedMethodIsACandidate() {
		assertThat(this.candidates.mayDeclare(Direct.class)).isTrue();
	}

	@Test
	void aMethodAnnotatedOnASuperclassMakesTheSubclassACandidate() {
		assertThat(this.candidates.mayDeclare(FromSuperclass.class)).isTrue();
	}

	@Test
	void aMethodAnnotatedOnAnInterfaceMakesTheImplementationACandidate() {
		assertThat(this.candidates.mayDeclare(FromInterface.class)).isTrue();
		assertThat(this.candidates.mayDeclare(FromInheritedInterface.class)).isTrue();
	}

	@Test
	void aComposedAnnotationMakesTheClassACandidate() {
		assertThat(this.candidates.mayDeclare(Composed.class)).isTrue();
	}

	@Test
	void aProxysTargetClassIsACandidate() {
		Object proxy = new ProxyFactory(new Direct()).getProxy();
		assertThat(this.candidates.mayDeclare(AopUtils.getTargetClass(proxy))).isTrue();
		ProxyFactory classProxy = new ProxyFactory(new Direct());
		classProxy.setProxyTargetClass(true);
		assertThat(this.candidates.mayDeclare(classProxy.getProxy().getClass())).isTrue();
	}

	static class Plain {

		void changed(V1ConfigMap configMap) {
		}

	}

	static class Direct {

		@OnAdd
		void added(V1ConfigMap configMap) {
		}

	}

	static class FromSuperclass extends Direct {

	}

	interface Handler {

		@Reconcile
		void reconcile(V1ConfigMap configMap);

	}

	interface InheritedHandler extends Handler {

	}

	static class FromInterface implements Handler {

		@Override
		public void reconcile(V1ConfigMap configMap) {
		}

	}

	static class FromInheritedInterface implements InheritedHandler {

		@Override
		public void reconcile(V1ConfigMap configMap) {
		}

	}

	@Retention(RetentionPolicy.RUNTIME)
	@Target(ElementType.METHOD)
	@OnUpdate
	@interface ConfigMapChanged {

	}

	static class Composed {

		@ConfigMapChanged
		void changed(V1ConfigMap oldConfigMap, V1ConfigMap newConfigMap) {
		}

	}

}
