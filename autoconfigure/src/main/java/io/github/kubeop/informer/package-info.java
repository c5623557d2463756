/**
 * Informers: list and watch of Kubernetes resources into shared, indexed caches, with the
 * failure handling the official client's informers lack (paged lists, bookmarks, stalled
 * watch detection, back-off, deletes reported after a relist).
 */
package io.github.kubeop.informer;
