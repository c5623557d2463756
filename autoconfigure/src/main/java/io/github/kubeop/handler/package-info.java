/**
 * Handlers: methods called for changes of Kubernetes objects, through a rate-limited work
 * queue of keys per handler and a pool of workers that diff the cache against what was
 * last delivered ({@code @OnAdd}, {@code @OnUpdate}, {@code @OnDelete}).
 */
package io.github.kubeop.handler;
