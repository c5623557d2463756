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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Serves the webhooks in the application's servlet container: requests that arrive on the
 * webhook port are answered here (reviews posted to a webhook's path, 404 for anything
 * else), every other request goes on to the application. A filter rather than a servlet,
 * because webhook paths are known only once the webhook beans exist, after the servlet
 * context has started.
 *
 * @author Kubeop authors
 */
public class WebhookFilter implements Filter {

	private final Supplier<WebhookRegistry> registry;

	private final IntPredicate isWebhookPort;

	/**
	 * Creates a filter.
	 * @param registry the webhooks, asked for on the first request
	 * @param isWebhookPort whether a local port is the webhook port
	 */
	public WebhookFilter(Supplier<WebhookRegistry> registry, IntPredicate isWebhookPort) {
		this.registry = registry;
		this.isWebhookPort = isWebhookPort;
	}

	@Override
	public void doFilter(ServletRequest servletRequest, ServletResponse servletResponse, FilterChain chain)
			throws IOException, ServletException {
		HttpServletRequest request = (HttpServletRequest) servletRequest;
		HttpServletResponse response = (HttpServletResponse) servletResponse;
		if (!this.isWebhookPort.test(request.getLocalPort())) {
			chain.doFilter(request, response);
			return;
		}
		String path = request.getRequestURI().substring(request.getContextPath().length());
		WebhookRegistry registry = this.registry.get();
		WebhookRegistry.Response refused = registry.refuse(request.getMethod(), path);
		send(response, (refused != null) ? refused
				: registry.respond(path, request.getInputStream().readNBytes(WebhookRegistry.MAX_BODY + 1)));
	}

	private static void send(HttpServletResponse response, WebhookRegistry.Response answer) throws IOException {
		byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
		response.setStatus(answer.status());
		if (answer.allow() != null) {
			response.setHeader("Allow", answer.allow());
		}
		response.setContentType(answer.contentType());
		response.setContentLength(bytes.length);
		response.getOutputStream().write(bytes);
	}

}
