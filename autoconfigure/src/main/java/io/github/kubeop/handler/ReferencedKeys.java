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

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * The keys an informer of referenced objects keeps: those some primary references, by any
 * of the references that read from it.
 *
 * @author Kubeop authors
 */
final class ReferencedKeys implements Predicate<String> {

	private final List<Predicate<String>> sources = new CopyOnWriteArrayList<>();

	void add(Predicate<String> source) {
		this.sources.add(source);
	}

	@Override
	public boolean test(String key) {
		for (Predicate<String> source : this.sources) {
			if (source.test(key)) {
				return true;
			}
		}
		return false;
	}

}
