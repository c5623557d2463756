/**
 * Build-time tools of the reference documentation.
 */
package io.github.kubeop.docs;
