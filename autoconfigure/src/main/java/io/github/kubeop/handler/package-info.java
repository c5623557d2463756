/**
 * Handlers: methods called for changes of Kubernetes objects, through a rate-limited work
 * queue of keys per handler and a pool of workers that diff the cache against what was
 * last delivered ({@code @OnAdd}, {@code @OnUpdate}, {@code @OnDelete}).
 * <p>
 * One {@link io.github.kubeop.handler.Controller} per handler runs the worker loop; each
 * of its guarantees has a class of its own: {@code EnqueueingEventHandler} turns informer
 * events into queued keys, {@code DeliveryLedger} holds what was delivered per key,
 * {@code CallPlanner} decides which method a key's change calls,
 * {@code ReadAfterWriteGate} holds a key back until the informers show its own writes,
 * {@code Finalizers} adds and removes the finalizer of a cleanup method,
 * {@code Activation} lets events and calls through only while the workers run (leader
 * election), {@code HandledKeys} holds the keys this replica handles (sharding) and
 * {@code WorkerPool} the worker threads.
 */
package io.github.kubeop.handler;
