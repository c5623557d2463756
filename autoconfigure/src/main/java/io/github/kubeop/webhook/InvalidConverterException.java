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

package io.github.kubeop.webhook;

/**
 * Thrown at startup for {@link VersionConverter} beans that cannot be put together into
 * conversions, naming the converter and the fix.
 *
 * @author Kubeop authors
 */
public class InvalidConverterException extends RuntimeException {

	private final String fix;

	/**
	 * Creates a new instance.
	 * @param problem what is wrong
	 * @param fix how to fix it
	 */
	public InvalidConverterException(String problem, String fix) {
		super(problem);
		this.fix = fix;
	}

	/**
	 * Returns how to fix the converters.
	 * @return the fix
	 */
	public String getFix() {
		return this.fix;
	}

}
