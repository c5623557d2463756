/**
 * Spring Boot test support for operators built on Kubeop: {@link KubeopOperatorTest}
 * boots the operator against a real control plane, and a {@code @ServiceConnection} K3s
 * container supplies the connection where Docker runs.
 */
package io.github.kubeop.test.autoconfigure;
