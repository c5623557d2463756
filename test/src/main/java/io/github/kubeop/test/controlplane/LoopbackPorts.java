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

package io.github.kubeop.test.controlplane;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks loopback ports for processes that bind them later, such as etcd and
 * kube-apiserver. A port that the kernel hands out for {@code bind(0)} comes from the
 * ephemeral range, which is also where every outgoing connection takes its local port
 * from, so between picking such a port and the process binding it, any connection on the
 * machine may take it ({@code bind: address already in use}). The ports picked here lie
 * below the ephemeral range, where only listeners that ask for a port by number go.
 * Another process may still pick the same port in between; callers retry on a bind
 * failure ({@link #isBindFailure(String)}).
 *
 * @author Kubeop authors
 */
final class LoopbackPorts {

	private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

	/** Below the ports that servers commonly use by number. */
	private static final int LOWEST = 10000;

	/** Linux's default start of the ephemeral range, for systems that do not say. */
	private static final int DEFAULT_EPHEMERAL_START = 32768;

	private static final int ATTEMPTS = 200;

	private LoopbackPorts() {
	}

	/**
	 * Returns a loopback port that is free now and outside the ephemeral range.
	 * @return the port
	 */
	static int pick() {
		int end = ephemeralStart();
		if (end <= LOWEST + 1000) {
			// the ephemeral range covers nearly everything: let the kernel choose
			return bindAny();
		}
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			int port = ThreadLocalRandom.current().nextInt(LOWEST, end);
			if (isFree(port)) {
				return port;
			}
		}
		return bindAny();
	}

	/**
	 * Returns whether a process's output says that it could not bind a port.
	 * @param output the tail of the process's log
	 * @return whether it failed to bind
	 */
	static boolean isBindFailure(String output) {
		return output.contains("address already in use");
	}

	static int ephemeralStart() {
		// read as lines: procfs files report a size of zero, which whole-file reads trust
		try (BufferedReader reader = Files.newBufferedReader(EPHEMERAL_RANGE)) {
			String[] range = reader.readLine().trim().split("\\s+");
			return Integer.parseInt(range[0]);
		}
		catch (IOException | RuntimeException ex) {
			return DEFAULT_EPHEMERAL_START;
		}
	}

	private static boolean isFree(int port) {
		try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static int bindAny() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not find a free loopback port", ex);
		}
	}

}
