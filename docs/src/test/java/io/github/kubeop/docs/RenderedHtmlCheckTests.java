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

package io.github.kubeop.docs;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RenderedHtmlCheck}.
 *
 * @author Kubeop authors
 */
class RenderedHtmlCheckTests {

	@Test
	void escapedXmlAndHighlightedJavaPass() {
		String html = "<pre class=\"highlight\"><code>&lt;dependency&gt;\n&lt;version&gt;0.1.0&lt;/version&gt;\n"
				+ "&lt;/dependency&gt;</code></pre>"
				+ "<pre class=\"CodeRay highlight\"><code data-lang=\"java\"><span class=\"keyword\">class</span> A {}</code></pre>";
		assertThat(RenderedHtmlCheck.problems("index.html", html)).isEmpty();
	}

	@Test
	void xmlPassedThroughAsTagsIsReported() {
		String html = "<pre class=\"highlight\"><code><dependency>\n<groupId>io.github.kubeop</groupId>\n"
				+ "</dependency></code></pre>";
		assertThat(RenderedHtmlCheck.problems("index.html", html)).hasSize(4)
			.first()
			.asString()
			.contains("listing 1 has unescaped markup <dependency>");
	}

	@Test
	void emptyListingIsReported() {
		assertThat(RenderedHtmlCheck.problems("index.html", "<pre class=\"highlight\"><code> </code></pre>"))
			.containsExactly("index.html: listing 1 is empty");
	}

	@Test
	void leftoverIncludeAndUnresolvedAttributeAreReported() {
		assertThat(RenderedHtmlCheck.problems("index.html", "<p>include::{sample-java}/A.java[]</p>")).containsExactly(
				"index.html: an include:: directive was not resolved",
				"index.html: attribute reference {sample-java} was not resolved");
	}

}
