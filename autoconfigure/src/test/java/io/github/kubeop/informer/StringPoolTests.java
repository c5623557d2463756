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

import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link StringPool}.
 *
 * @author Kubeop authors
 */
class StringPoolTests {

	@Test
	void equalStringsAreOneInstance() {
		String first = new String("app.kubernetes.io/name");
		String second = new String("app.kubernetes.io/name");
		assertThat(StringPool.pooled(first)).isSameAs(first);
		assertThat(StringPool.pooled(second)).isSameAs(first);
		assertThat(StringPool.pooled(new String("app.kubernetes.io/names"))).isNotSameAs(first);
	}

	@Test
	void bytesArePooledAsTheStringTheyHold() {
		String prefix = UUID.randomUUID() + "-";
		String text = new String(prefix + "app.kubernetes.io/name");
		String pooled = StringPool.pooled(text);
		byte[] frame = ("xx" + text + "yy").getBytes(StandardCharsets.UTF_8);
		assertThat(StringPool.pooled(frame, 2, text.length())).isSameAs(pooled);
		// a string first seen as bytes is the instance later strings get
		byte[] tier = (prefix + "tier").getBytes(StandardCharsets.UTF_8);
		String fromBytes = StringPool.pooled(tier, 0, tier.length);
		assertThat(fromBytes).isEqualTo(prefix + "tier");
		assertThat(StringPool.pooled(new String(prefix + "tier"))).isSameAs(fromBytes);
		byte[] other = (prefix + "tieR").getBytes(StandardCharsets.UTF_8);
		assertThat(StringPool.pooled(other, 0, other.length)).isEqualTo(prefix + "tieR");
		// UTF-8 beyond ASCII
		String accented = prefix + "café";
		byte[] utf8 = accented.getBytes(StandardCharsets.UTF_8);
		String accentedPooled = StringPool.pooled(utf8, 0, utf8.length);
		assertThat(accentedPooled).isEqualTo(accented);
		assertThat(StringPool.pooled(new String(accented))).isSameAs(accentedPooled);
	}

	@Test
	void bytesAreHashedAsTheStringTheyHold() {
		// every length up to past two steps of four bytes, so that each remainder of the
		// four-byte steps is taken
		String prefix = UUID.randomUUID() + "-";
		String text = "app.kubernetes.io/name=web-0123456789";
		for (int length = 0; length <= text.length(); length++) {
			String part = prefix + text.substring(0, length);
			String pooled = StringPool.pooled(new String(part));
			byte[] frame = ("xyz" + part + "w").getBytes(StandardCharsets.UTF_8);
			assertThat(StringPool.pooled(frame, 3, part.length())).as(part).isSameAs(pooled);
		}
		for (int at = 0; at < 9; at++) {
			byte[] bytes = "abcdefghi".getBytes(StandardCharsets.UTF_8);
			bytes[at] = (byte) 0xC3;
			assertThat(StringPool.pooled(bytes, 0, bytes.length)).as("non-ASCII at %d", at)
				.isEqualTo(new String(bytes, StandardCharsets.UTF_8));
		}
	}

	@Test
	void poolingFromBytesIsTooLargeForTheJitToInlineIntoTheDecoder() throws IOException {
		// inlined, a pooled string collected by the GC made C2 throw away and recompile
		// the decoder's largest method (see StringPool.pooled(byte[], int, int))
		assertThat(codeLength(StringPool.class, "pooled", "([BII)Ljava/lang/String;")).isGreaterThan(325);
	}

	/**
	 * Returns the length of a method's bytecode, read from its class file.
	 */
	private static int codeLength(Class<?> type, String name, String descriptor) throws IOException {
		try (DataInputStream in = new DataInputStream(type.getResourceAsStream(type.getSimpleName() + ".class"))) {
			in.skipBytes(8);
			int count = in.readUnsignedShort();
			String[] utf8 = new String[count];
			for (int i = 1; i < count; i++) {
				int tag = in.readUnsignedByte();
				switch (tag) {
					case 1 -> utf8[i] = in.readUTF();
					case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
					case 5, 6 -> {
						in.skipBytes(8);
						i++;
					}
					case 7, 8, 16, 19, 20 -> in.skipBytes(2);
					case 15 -> in.skipBytes(3);
					default -> throw new IOException("Constant pool tag " + tag);
				}
			}
			in.skipBytes(6);
			in.skipBytes(2 * in.readUnsignedShort());
			int fields = in.readUnsignedShort();
			for (int i = 0; i < fields; i++) {
				in.skipBytes(6);
				skipAttributes(in);
			}
			int methods = in.readUnsignedShort();
			for (int i = 0; i < methods; i++) {
				in.skipBytes(2);
				boolean wanted = name.equals(utf8[in.readUnsignedShort()])
						& descriptor.equals(utf8[in.readUnsignedShort()]);
				int attributes = in.readUnsignedShort();
				for (int j = 0; j < attributes; j++) {
					String attribute = utf8[in.readUnsignedShort()];
					int length = in.readInt();
					if (wanted && "Code".equals(attribute)) {
						in.skipBytes(4);
						return in.readInt();
					}
					in.skipBytes(length);
				}
			}
		}
		throw new IllegalArgumentException("No method " + name + descriptor);
	}

	private static void skipAttributes(DataInputStream in) throws IOException {
		int attributes = in.readUnsignedShort();
		for (int i = 0; i < attributes; i++) {
			in.skipBytes(2);
			in.skipBytes(in.readInt());
		}
	}

	@Test
	void threadsPoolingTheSameStringsAgreeOnTheirInstances() throws Exception {
		// many new strings at once from two threads: the segments' tables grow while
		// both look up and add
		int strings = 50_000;
		String prefix = UUID.randomUUID() + "-";
		ExecutorService executor = Executors.newFixedThreadPool(2);
		try {
			CountDownLatch start = new CountDownLatch(1);
			Callable<String[]> pooling = () -> {
				start.await();
				String[] pooled = new String[strings];
				for (int i = 0; i < strings; i++) {
					pooled[i] = StringPool.pooled(prefix + i);
				}
				return pooled;
			};
			Future<String[]> first = executor.submit(pooling);
			Future<String[]> second = executor.submit(pooling);
			start.countDown();
			String[] firstPooled = first.get(2, TimeUnit.MINUTES);
			String[] secondPooled = second.get(2, TimeUnit.MINUTES);
			for (int i = 0; i < strings; i++) {
				assertThat(secondPooled[i]).isSameAs(firstPooled[i]);
				assertThat(StringPool.pooled(prefix + i)).isSameAs(firstPooled[i]);
			}
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void entriesOfCollectedStringsAreDroppedSoChurnDoesNotGrowThePool() {
		// a million strings that nothing keeps: without dropping the entries of collected
		// strings the pool would hold a million entries
		List<String> kept = new ArrayList<>();
		for (int round = 0; round < 100; round++) {
			for (int i = 0; i < 10_000; i++) {
				String pooled = StringPool.pooled(UUID.randomUUID().toString());
				if (i == 0) {
					kept.add(pooled);
				}
			}
			System.gc();
		}
		assertThat(StringPool.size()).isLessThan(300_000);
		for (String pooled : kept) {
			assertThat(StringPool.pooled(new String(pooled))).isSameAs(pooled);
		}
	}

}
