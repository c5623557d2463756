/**
 * Benchmarks of Kubeop beside the alternatives, measured in the same run.
 */
package io.github.kubeop.benchmarks;
