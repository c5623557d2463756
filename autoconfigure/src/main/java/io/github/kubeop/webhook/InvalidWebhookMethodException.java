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

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Thrown at startup (and by the Maven plugin at build time) for a webhook method Kubeop
 * cannot call, naming the method and the fix.
 *
 * @author Kubeop authors
 */
public class InvalidWebhookMethodException extends RuntimeException {

	private final transient Method method;

	private final String fix;

	/**
	 * Creates a new instance.
	 * @param method the method
	 * @param problem what is wrong
	 * @param fix how to fix it
	 */
	public InvalidWebhookMethodException(Method method, String problem, String fix) {
		super("Webhook method " + describe(method) + " " + problem);
		this.method = method;
		this.fix = fix;
	}

	/**
	 * Returns the method.
	 * @return the method
	 */
	public Method getMethod() {
		return this.method;
	}

	/**
	 * Returns how to fix the method.
	 * @return the fix
	 */
	public String getFix() {
		return this.fix;
	}

	static String describe(Method method) {
		return method.getDeclaringClass().getName() + "." + method.getName() + "("
				+ Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName).collect(Collectors.joining(", "))
				+ ")";
	}

}
