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

/**
 * Thrown when a {@link TransformFunction} fails for an object, so that the object is
 * skipped with a message that blames the transform, not the object's JSON.
 *
 * @author Kubeop authors
 */
final class TransformException extends RuntimeException {

	TransformException(RuntimeException cause) {
		super(cause.toString(), cause);
	}

}
