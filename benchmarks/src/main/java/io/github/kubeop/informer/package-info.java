/**
 * Access to the informer package's internals for the benchmarks only.
 */
package io.github.kubeop.informer;
