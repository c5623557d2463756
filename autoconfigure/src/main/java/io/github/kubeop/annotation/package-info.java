/**
 * Annotations through which application beans declare what Kubeop should do for them:
 * indexes on informers, and (with the handlers) methods called on changes.
 */
package io.github.kubeop.annotation;
