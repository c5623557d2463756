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

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
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
 * <p>
 * The hand-off takes no lock: the informer adds to a lock-free queue and wakes the
 * delivering thread only when that thread has said that it parks, and the thread looks at
 * the queue once more after saying so, so that a notification added meanwhile is never
 * left behind. (A monitor woken with {@code notifyAll} for every notification made the
 * watch's thread and this one contend for its lock on every event.) Each start has a
 * queue and a parking flag of its own, so that a thread replaced by a stop and a start
 * can neither take its successor's notifications nor miss its wake-up.
 *
 * @param <T> the Java type of the objects
 * @author Kubeop authors
 */
final class ProcessorListener<T extends KubernetesObject> {

	private static final Log logger = LogFactory.getLog(ProcessorListener.class);

	private final ResourceEventHandler<T> handler;

	private final String threadName;

	/** What notifications are added to: the running delivery, or the next one. */
	private volatile Delivery delivery = new Delivery();

	ProcessorListener(ResourceEventHandler<T> handler, String threadName) {
		this.handler = handler;
		this.threadName = threadName;
	}

	/**
	 * Enqueues a notification, without waiting for the handler.
	 * @param notification the call to make on the handler
	 */
	void add(Consumer<ResourceEventHandler<T>> notification) {
		Delivery current = this.delivery;
		current.pending.add(notification);
		// after the add: a thread that said it parks before it looked at the queue a last
		// time either saw this notification or is woken here
		if (current.parking) {
			LockSupport.unpark(current.thread);
		}
	}

	/**
	 * Starts delivering, on a daemon thread of the listener's own.
	 */
	synchronized void start() {
		Delivery current = this.delivery;
		if (current.thread != null) {
			return;
		}
		Thread thread = new Thread(current, this.threadName);
		thread.setDaemon(true);
		current.thread = thread;
		thread.start();
	}

	/**
	 * Stops delivering once the running call, if any, returns; notifications not yet
	 * delivered are dropped, as the informer that made them stops too.
	 */
	synchronized void stop() {
		Delivery stopped = this.delivery;
		this.delivery = new Delivery();
		stopped.stopped = true;
		if (stopped.thread != null) {
			LockSupport.unpark(stopped.thread);
		}
	}

	/**
	 * One start's queue and thread.
	 */
	private final class Delivery implements Runnable {

		private final Queue<Consumer<ResourceEventHandler<T>>> pending = new ConcurrentLinkedQueue<>();

		/** Set before the thread starts. */
		private volatile Thread thread;

		/**
		 * Whether the thread parks, or is about to: set before it looks at the queue a
		 * last time, read by {@link #add} after it enqueued.
		 */
		private volatile boolean parking;

		private volatile boolean stopped;

		@Override
		public void run() {
			while (true) {
				Consumer<ResourceEventHandler<T>> next = next();
				if (next == null) {
					return;
				}
				try {
					next.accept(ProcessorListener.this.handler);
				}
				catch (RuntimeException | Error ex) {
					// an Error too: a listener that died would stop this handler silently
					logger.error("Event handler " + ProcessorListener.this.handler + " on "
							+ ProcessorListener.this.threadName + " failed", ex);
				}
			}
		}

		/**
		 * Returns the next notification, parking until there is one, or {@code null} once
		 * stopped or interrupted.
		 */
		private Consumer<ResourceEventHandler<T>> next() {
			while (!this.stopped) {
				Consumer<ResourceEventHandler<T>> next = this.pending.poll();
				if (next != null) {
					// a stop drops what was not delivered
					return this.stopped ? null : next;
				}
				this.parking = true;
				// once more after saying so: an add before it may not have seen it
				next = this.pending.poll();
				if (next == null && !this.stopped) {
					LockSupport.park(this);
				}
				this.parking = false;
				if (next != null) {
					return this.stopped ? null : next;
				}
				if (Thread.currentThread().isInterrupted()) {
					return null;
				}
			}
			return null;
		}

	}

}
