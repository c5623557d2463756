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

package io.github.kubeop.autoconfigure;

import io.github.kubeop.webhook.InvalidConverterException;
import io.github.kubeop.webhook.InvalidWebhookMethodException;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * Explains a webhook method Kubeop cannot call, or converters that do not fit together.
 *
 * @author Kubeop authors
 */
class InvalidWebhookFailureAnalyzer implements FailureAnalyzer {

	@Override
	public FailureAnalysis analyze(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof InvalidWebhookMethodException method) {
				return new FailureAnalysis(method.getMessage(), method.getFix(), method);
			}
			if (cause instanceof InvalidConverterException converter) {
				return new FailureAnalysis(converter.getMessage(), converter.getFix(), converter);
			}
		}
		return null;
	}

}
