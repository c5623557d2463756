/**
 * A sample operator written the way a Kubeop user writes one.
 */
package io.github.kubeop.sample;
