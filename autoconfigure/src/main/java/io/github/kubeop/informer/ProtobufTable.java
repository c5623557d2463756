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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The protobuf encoding of the built-in kinds, as generated from the Go types of
 * {@code k8s.io/api} for the client's Kubernetes version by
 * {@code autoconfigure/src/main/go/protobuf-table}: per Go type, each protobuf field's
 * number, its JSON name, and what only the Go types tell, which zero values JSON leaves
 * out (a value field with {@code omitempty}; a pointer keeps its zero value in JSON too)
 * and which nested messages JSON inlines into their parent (a volume's
 * {@code volumeSource}, a probe's {@code handler}).
 *
 * @author Kubeop authors
 */
final class ProtobufTable {

	private static final String RESOURCE = "protobuf-table.txt";

	private static volatile ProtobufTable instance;

	private final Map<String, MessageType> types;

	private final Map<String, String> kinds;

	private final String apiVersion;

	private ProtobufTable(Map<String, MessageType> types, Map<String, String> kinds, String apiVersion) {
		this.types = types;
		this.kinds = kinds;
		this.apiVersion = apiVersion;
	}

	/**
	 * Returns the table of the built-in kinds, read once.
	 * @return the table
	 */
	static ProtobufTable get() {
		ProtobufTable table = instance;
		if (table == null) {
			synchronized (ProtobufTable.class) {
				table = instance;
				if (table == null) {
					try (InputStream in = ProtobufTable.class.getResourceAsStream(RESOURCE)) {
						if (in == null) {
							throw new IllegalStateException("No " + RESOURCE + " beside " + ProtobufTable.class);
						}
						table = read(in);
					}
					catch (IOException ex) {
						throw new UncheckedIOException(ex);
					}
					instance = table;
				}
			}
		}
		return table;
	}

	static ProtobufTable read(InputStream in) throws IOException {
		Map<String, MessageType> types = new HashMap<>();
		Map<String, String> kinds = new HashMap<>();
		String apiVersion = null;
		BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
		String name = null;
		String[] meta = null;
		Map<Integer, FieldInfo> fields = null;
		String line;
		while ((line = reader.readLine()) != null) {
			if (line.startsWith("# k8s.io/api ")) {
				apiVersion = line.substring("# k8s.io/api ".length()).trim();
				continue;
			}
			if (line.isEmpty() || line.startsWith("#")) {
				continue;
			}
			String[] parts = line.split(" ");
			if (parts[0].equals("kind")) {
				kinds.put(parts[1], parts[2]);
			}
			else if (parts[0].equals("type")) {
				if (name != null) {
					types.put(name, new MessageType(name, fields, meta));
				}
				name = parts[1];
				meta = null;
				fields = new HashMap<>();
			}
			else if (parts[0].equals("meta")) {
				meta = new String[] { parts[1], parts[2] };
			}
			else {
				int number = Integer.parseInt(parts[0]);
				String flags = parts[2];
				fields.put(number,
						new FieldInfo(number, parts[1].equals("-") ? null : parts[1], flags.indexOf('o') >= 0,
								flags.indexOf('i') >= 0, flags.indexOf('p') >= 0, flags.indexOf('r') >= 0,
								flags.indexOf('m') >= 0, ValueType.parse(parts[3])));
			}
		}
		if (name != null) {
			types.put(name, new MessageType(name, fields, meta));
		}
		return new ProtobufTable(types, kinds, apiVersion);
	}

	/**
	 * Returns the Go type of a built-in kind.
	 * @param group the kind's group, {@code ""} for the core group
	 * @param version the kind's version
	 * @param kind the kind
	 * @return the Go type's name, or {@code null} if the kind is not built in
	 */
	String goType(String group, String version, String kind) {
		return this.kinds.get(group + "/" + version + "/" + kind);
	}

	/**
	 * Returns a message type.
	 * @param goType the Go type's name
	 * @return the type, or {@code null}
	 */
	MessageType type(String goType) {
		return this.types.get(goType);
	}

	/**
	 * Returns the version of {@code k8s.io/api} the table was generated from.
	 * @return the version, such as {@code v0.35.4}
	 */
	String apiVersion() {
		return this.apiVersion;
	}

	/**
	 * How a value is encoded.
	 */
	enum Kind {

		STRING, BOOL, INT32, INT64, BYTES, DOUBLE, TIME, MICROTIME, DURATION, FIELDSV1, RAWEXTENSION, QUANTITY,
		INTORSTRING, MESSAGE, LIST

	}

	/**
	 * The type of a value.
	 *
	 * @param kind how it is encoded
	 * @param message the Go type of a message
	 * @param element the type of the elements of a list that a map or a slice nests in a
	 * message of one repeated field
	 */
	record ValueType(Kind kind, String message, ValueType element) {

		static ValueType parse(String text) {
			if (text.startsWith("@")) {
				return new ValueType(Kind.MESSAGE, text.substring(1), null);
			}
			if (text.startsWith("list:")) {
				return new ValueType(Kind.LIST, null, parse(text.substring("list:".length())));
			}
			return new ValueType(Kind.valueOf(text.toUpperCase(java.util.Locale.ROOT)), null, null);
		}

	}

	/**
	 * A protobuf field of a Go type.
	 *
	 * @param number the field's number
	 * @param jsonName its JSON name, or {@code null} if JSON inlines it
	 * @param omitempty whether JSON leaves its zero value out
	 * @param inline whether JSON inlines the message into its parent
	 * @param pointer whether the Go field is a pointer (its zero value is sent in JSON)
	 * @param repeated whether it is a slice
	 * @param map whether it is a map (with string keys)
	 * @param type the type of the value or of the elements
	 */
	record FieldInfo(int number, String jsonName, boolean omitempty, boolean inline, boolean pointer, boolean repeated,
			boolean map, ValueType type) {

	}

	/**
	 * A Go type's protobuf message.
	 *
	 * @param name the Go type's name
	 * @param fields its fields by number
	 * @param typeMeta the apiVersion and kind of a type that embeds {@code TypeMeta}
	 * (which protobuf does not encode), or {@code null}
	 */
	record MessageType(String name, Map<Integer, FieldInfo> fields, String[] typeMeta) {

	}

}
