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

package io.github.kubeop.write;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.kubeop.informer.ResourceKind;

/**
 * What this process last wrote of each object through a {@link KubernetesTemplate}: the
 * resourceVersion the server answered, whether it was a delete, and a digest of the last
 * apply's body. Reads use it to tell a stale cache from a current one (read-after-write);
 * applies use it to know whether the desired state is the one this field manager last
 * applied, since an informer's cache does not keep {@code managedFields} to tell.
 * <p>
 * One small entry per object written since start (a digest, not the body); an object
 * deleted through the template keeps its entry until it is written again, so that a read
 * still knows it is gone.
 *
 * @author Kubeop authors
 */
final class WrittenObjects {

	private final Map<String, Map<String, Written>> byResource = new ConcurrentHashMap<>();

	/**
	 * Records a write the server answered with an object.
	 * @param kind the resource
	 * @param key the object's key ({@code namespace/name} or {@code name})
	 * @param uid the object's uid
	 * @param resourceVersion the resourceVersion the server answered with
	 * @param appliedBody the body of the apply, or {@code null} if the write was no
	 * apply: the next apply is then sent, whatever it carries
	 */
	void wrote(ResourceKind kind, String key, String uid, String resourceVersion, String appliedBody) {
		Map<String, Written> objects = this.byResource.computeIfAbsent(resourceOf(kind),
				(resource) -> new ConcurrentHashMap<>());
		byte[] digest = (appliedBody != null) ? digest(appliedBody) : null;
		objects.put(key, new Written(uid, resourceVersion, false, digest));
	}

	/**
	 * Records a write of a status, which leaves what was applied to the object as it was.
	 * @param kind the resource
	 * @param key the object's key
	 * @param uid the object's uid
	 * @param resourceVersion the resourceVersion the server answered with
	 */
	void wroteStatus(ResourceKind kind, String key, String uid, String resourceVersion) {
		Map<String, Written> objects = this.byResource.computeIfAbsent(resourceOf(kind),
				(resource) -> new ConcurrentHashMap<>());
		objects.compute(key,
				(ignored, last) -> new Written(uid, resourceVersion, false,
						(last != null && !last.deleted() && uid != null && uid.equals(last.uid()))
								? last.appliedDigest() : null));
	}

	/**
	 * Records that an object was deleted (or is being deleted, when it has finalizers).
	 * @param kind the resource
	 * @param key the object's key
	 * @param uid the uid of the object deleted, {@code null} if unknown
	 * @param resourceVersion the resourceVersion of the delete, {@code null} if unknown
	 */
	void deleted(ResourceKind kind, String key, String uid, String resourceVersion) {
		this.byResource.computeIfAbsent(resourceOf(kind), (resource) -> new ConcurrentHashMap<>())
			.put(key, new Written(uid, resourceVersion, true, null));
	}

	/**
	 * Returns the last write of an object.
	 * @param kind the resource
	 * @param key the object's key
	 * @return the write, or {@code null} if none was recorded
	 */
	Written lastWrite(ResourceKind kind, String key) {
		Map<String, Written> objects = this.byResource.get(resourceOf(kind));
		return (objects != null) ? objects.get(key) : null;
	}

	/**
	 * Returns the last writes of every object of a resource.
	 * @param kind the resource
	 * @return the writes, by object key
	 */
	Collection<Map.Entry<String, Written>> lastWrites(ResourceKind kind) {
		Map<String, Written> objects = this.byResource.get(resourceOf(kind));
		return (objects != null) ? objects.entrySet() : List.of();
	}

	/**
	 * Returns whether an apply body is the one last applied to the object with that uid.
	 * @param kind the resource
	 * @param key the object's key
	 * @param uid the live object's uid
	 * @param body the body about to be applied
	 * @return whether it was applied last, to this very object
	 */
	boolean lastApplied(ResourceKind kind, String key, String uid, String body) {
		Written written = lastWrite(kind, key);
		return written != null && !written.deleted() && written.appliedDigest() != null && uid != null
				&& uid.equals(written.uid()) && Arrays.equals(written.appliedDigest(), digest(body));
	}

	private static String resourceOf(ResourceKind kind) {
		return kind.plural() + "." + kind.group();
	}

	private static byte[] digest(String body) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is missing from this JVM", ex);
		}
	}

	/**
	 * The last write of an object.
	 *
	 * @param uid the object's uid, {@code null} if unknown
	 * @param resourceVersion the resourceVersion the server answered with, {@code null}
	 * if unknown
	 * @param deleted whether the write was a delete
	 * @param appliedDigest the digest of the apply's body, {@code null} if the write was
	 * no apply
	 */
	record Written(String uid, String resourceVersion, boolean deleted, byte[] appliedDigest) {

	}

}
