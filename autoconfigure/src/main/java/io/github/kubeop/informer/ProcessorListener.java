/*
 * Copyright 2026 the Kubeop authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.github.kubeop.informer;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.function.Consumer;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * One handler's ordered delivery, as client-go's {@code processorListener}: the informer
 * enqueues notifications, in the order it changed its cache, and a thread of the
 * listener's own calls the handler with them one at a time. Enqueuing never blocks, so a
 * slow handler never holds up the watch or the other handlers; like client-go's, the
 * buffer is unbounded and grows while the handler falls behind.
 *
 * @param <T> the Java type of the objects
 * @author Kubeop authors
 */
final class ProcessorListener<T extends KubernetesObject> implements Runnable {

	private static final Log logger = LogFactory.getLog(ProcessorListener.class);

	private final ResourceEventHandler<T> handler;

	private final String threadName;

	private final Queue<Consumer<ResourceEventHandler<T>>> pending = new ArrayDeque<>();

	private boolean running;

	private Thread thread;

	ProcessorListener(ResourceEventHandler<T> handler, String threadName) {
		this.handler = handler;
		this.threadName = threadName;
	}

	/**
	 * Enqueues a notification, without waiting for the handler.
	 * @param notification the call to make on the handler
	 */
	synchronized void add(Consumer<ResourceEventHandler<T>> notification) {
		this.pending.add(notification);
		notifyAll();
	}

	/**
	 * Starts delivering, on a daemon thread of the listener's own.
	 */
	synchronized void start() {
		if (this.running) {
			return;
		}
		this.running = true;
		this.thread = new Thread(this, this.threadName);
		this.thread.setDaemon(true);
		this.thread.start();
	}

	/**
	 * Stops delivering once the running call, if any, returns; notifications not yet
	 * delivered are dropped, as the informer that made them stops too.
	 */
	synchronized void stop() {
		this.running = false;
		this.pending.clear();
		this.thread = null;
		notifyAll();
	}

	@Override
	public void run() {
		Thread self = Thread.currentThread();
		while (true) {
			Consumer<ResourceEventHandler<T>> next = next(self);
			if (next == null) {
				return;
			}
			try {
				next.accept(this.handler);
			}
			catch (RuntimeException | Error ex) {
				// an Error too: a listener that died would stop this handler silently
				logger.error("Event handler " + this.handler + " on " + this.threadName + " failed", ex);
			}
		}
	}

	private synchronized Consumer<ResourceEventHandler<T>> next(Thread self) {
		// a thread replaced by a stop and a start leaves, its successor delivers
		while (this.thread == self && this.pending.isEmpty()) {
			try {
				wait();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return null;
			}
		}
		return (this.thread == self) ? this.pending.poll() : null;
	}

}
