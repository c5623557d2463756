/**
 * Work queues with client-go's semantics: de-duplicated items, never processed twice at
 * once, delayed adds without a size limit, and rate-limited retries with client-go's
 * default controller limiter (5 ms to 1000 s per item, 10 per second burst 100 overall).
 */
package io.github.kubeop.queue;
