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

package io.github.kubeop.handler;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.openapi.models.V1StatusCause;

/**
 * What a {@code 409} from the API server means, told apart by the reason of the
 * {@code Status} it answered with, as apimachinery's {@code IsConflict} and
 * {@code IsAlreadyExists} do. Only an optimistic-concurrency conflict (a write that
 * carried an older {@code resourceVersion}) is routine: calling again with the cache's
 * newer state resolves it. A server-side apply that meets fields another field manager
 * owns answers with the same reason {@code Conflict}, but with causes of type
 * {@code FieldManagerConflict}: calling again changes nothing, as for
 * {@code AlreadyExists}. A delete whose {@code uid} precondition failed (the object of
 * that name was deleted and created again since it was read) is routine too, but says so:
 * the call again sees the new object and decides about it.
 *
 * @param type what kind of conflict
 * @param fieldManagers the other field managers an apply conflicted with, as the server
 * names them
 * @author Kubeop authors
 */
record WriteConflict(Type type, List<String> fieldManagers) {

	private static final String CONFLICT = "Conflict";

	private static final String ALREADY_EXISTS = "AlreadyExists";

	private static final String FIELD_MANAGER_CONFLICT = "FieldManagerConflict";

	/**
	 * How kube-apiserver words a failed {@code uid} precondition: "the UID in the
	 * precondition (...) does not match the UID in record (...)"; older servers said
	 * "Precondition failed: UID in precondition: ...".
	 */
	private static final Pattern UID_PRECONDITION_FAILED = Pattern.compile("UID in (the )?precondition",
			Pattern.CASE_INSENSITIVE);

	private static final Pattern CONFLICT_WITH = Pattern.compile("conflict with \"([^\"]+)\"");

	/**
	 * Finds the first {@code 409} among an exception and its causes, and tells what it
	 * means.
	 * @param ex the exception
	 * @return the conflict, or {@code null} if no {@link ApiException} with code 409 is
	 * among them
	 */
	static WriteConflict of(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof ApiException api && api.getCode() == 409) {
				return of(status(api.getResponseBody()));
			}
		}
		return null;
	}

	/**
	 * Tells what a {@code 409} means from the {@code Status} the server answered with.
	 * @param status the status, {@code null} if the body was none: then, as client-go
	 * does for a 409 without one, an optimistic-concurrency conflict
	 * @return the conflict
	 */
	static WriteConflict of(V1Status status) {
		String reason = (status != null && status.getReason() != null) ? status.getReason() : CONFLICT;
		if (ALREADY_EXISTS.equals(reason)) {
			return new WriteConflict(Type.ALREADY_EXISTS, List.of());
		}
		if (!CONFLICT.equals(reason)) {
			return new WriteConflict(Type.OTHER, List.of());
		}
		if (status != null && status.getMessage() != null
				&& UID_PRECONDITION_FAILED.matcher(status.getMessage()).find()) {
			return new WriteConflict(Type.REPLACED, List.of());
		}
		List<String> managers = new ArrayList<>();
		boolean fieldManagerConflict = false;
		if (status != null && status.getDetails() != null && status.getDetails().getCauses() != null) {
			for (V1StatusCause cause : status.getDetails().getCauses()) {
				if (FIELD_MANAGER_CONFLICT.equals(cause.getReason())) {
					fieldManagerConflict = true;
					managerOf(cause.getMessage(), managers);
				}
			}
		}
		return fieldManagerConflict ? new WriteConflict(Type.FIELD_MANAGER, List.copyOf(managers))
				: new WriteConflict(Type.OPTIMISTIC_CONCURRENCY, List.of());
	}

	/**
	 * Returns whether calling again with a newer state resolves the conflict.
	 * @return whether it is an optimistic-concurrency conflict or a replaced object
	 */
	boolean isRoutine() {
		return this.type == Type.OPTIMISTIC_CONCURRENCY || this.type == Type.REPLACED;
	}

	/**
	 * Says what went wrong, for a log line.
	 * @return the description
	 */
	String describe() {
		return switch (this.type) {
			case FIELD_MANAGER -> "an apply conflicts with fields owned by "
					+ (this.fieldManagers.isEmpty() ? "another field manager"
							: "field manager " + String.join(", ",
									this.fieldManagers.stream().map((manager) -> "\"" + manager + "\"").toList()))
					+ " (kubeop.write.force-conflicts is false: stop setting those fields, or let the "
					+ "operator take them over)";
			case ALREADY_EXISTS -> "the object already exists";
			case OTHER -> "the API server answered 409";
			case OPTIMISTIC_CONCURRENCY -> "the object changed since it was read";
			case REPLACED -> "the object was replaced: deleted and created again since it was read "
					+ "(its uid precondition failed)";
		};
	}

	private static void managerOf(String message, List<String> managers) {
		if (message == null) {
			return;
		}
		Matcher matcher = CONFLICT_WITH.matcher(message);
		while (matcher.find()) {
			if (!managers.contains(matcher.group(1))) {
				managers.add(matcher.group(1));
			}
		}
	}

	private static V1Status status(String body) {
		if (body == null || body.isBlank()) {
			return null;
		}
		try {
			return JSON.deserialize(body, V1Status.class);
		}
		catch (RuntimeException ex) {
			// not a Status: a proxy's page, say
			return null;
		}
	}

	/**
	 * The kinds of {@code 409}.
	 */
	enum Type {

		/**
		 * The write carried an older {@code resourceVersion} (reason {@code Conflict}).
		 */
		OPTIMISTIC_CONCURRENCY,

		/**
		 * A server-side apply met fields another field manager owns (reason
		 * {@code Conflict}, causes {@code FieldManagerConflict}).
		 */
		FIELD_MANAGER,

		/**
		 * A write's {@code uid} precondition failed: the object of that name is another
		 * one now (reason {@code Conflict}, a message naming the uid precondition).
		 */
		REPLACED,

		/**
		 * A create met an object of that name (reason {@code AlreadyExists}).
		 */
		ALREADY_EXISTS,

		/**
		 * Any other reason.
		 */
		OTHER

	}

}
