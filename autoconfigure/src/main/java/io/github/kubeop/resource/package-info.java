/**
 * Typed custom resources: plain Java classes annotated with {@link KubernetesResource},
 * usable wherever a generated model is (informers, listers, handlers, writes), and the
 * source from which their CustomResourceDefinitions are generated at build time.
 */
package io.github.kubeop.resource;
