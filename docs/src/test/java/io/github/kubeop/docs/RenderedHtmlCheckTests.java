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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

	@Test
	void javaListingCallingAHelperItDoesNotShowIsReported() {
		assertThat(RenderedHtmlCheck.problems("index.html", java("""
				class Reconciler {
				    void reconcile(Site site) {
				        apply(meta(site));
				    }
				    void apply(Object object) {
				    }
				}""")))
			.containsExactly("index.html: Java listing 1 (class Reconciler {) calls meta(...), which it neither "
					+ "shows nor imports");
	}

	@Test
	void javaListingWithItsHelpersRecordAccessorsAndStaticImportsPasses() {
		assertThat(RenderedHtmlCheck.problems("index.html", java("""
				import static org.assertj.core.api.Assertions.assertThat;
				import static java.util.Objects.*;
				record Reconciler(String name) {
				    // a comment that mentions hidden(x) is not a call, nor is "text(" in a string
				    String greeting() {
				        assertThat(name()).isNotNull();
				        return requireNonNullElse(helper(name()), "x");
				    }
				    private static String helper(String value) {
				        return value;
				    }
				}"""))).isEmpty();
	}

	@Test
	void javaListingCallingAMethodTheApiDoesNotHaveIsReported() {
		assertThat(RenderedHtmlCheck.problems("index.html", java("""
				import io.github.kubeop.write.KubernetesTemplate;
				import io.github.kubeop.write.Conditions;
				class Reconciler {
				    void reconcile(KubernetesTemplate kubernetes, Object site) throws Exception {
				        kubernetes.apply(site);
				        kubernetes.applyEverything(site);
				        Conditions.toApply(null, null);
				        Conditions.merge(null);
				    }
				}"""))).containsExactly(
				"index.html: Java listing 1 (import io.github.kubeop.write.KubernetesTemplate;) calls "
						+ "kubernetes.applyEverything(...), but io.github.kubeop.write.KubernetesTemplate has no "
						+ "method applyEverything",
				"index.html: Java listing 1 (import io.github.kubeop.write.KubernetesTemplate;) calls "
						+ "Conditions.merge(...), but io.github.kubeop.write.Conditions has no method merge");
	}

	@Test
	void linkIntoTheApiReferenceThatLeadsNowhereIsReported(@TempDir Path docs) throws IOException {
		Files.createDirectories(docs.resolve("apidocs/io/github/kubeop/write"));
		Files.writeString(docs.resolve("apidocs/io/github/kubeop/write/KubernetesTemplate.html"), "");
		String html = "<a href=\"apidocs/io/github/kubeop/write/KubernetesTemplate.html#apply(T)\">ok</a>"
				+ "<a href=\"apidocs/io/github/kubeop/write/Template.html\">renamed</a>";
		assertThat(RenderedHtmlCheck.brokenApiLinks(docs, "index.html", html)).containsExactly(
				"index.html: link to the API reference apidocs/io/github/kubeop/write/Template.html leads nowhere");
	}

	@Test
	void javaListingWrittenInlineIsReportedAndIncludedOnesPass() {
		String adoc = """
				[source,java]
				----
				include::{docs-java}/A.java[tag=example]
				}
				----

				[source,java,indent=0]
				----
				@Component
				class Inline {
				}
				----
				""";
		assertThat(RenderedHtmlCheck.uncompiledJavaListings("_a.adoc", adoc))
			.containsExactly("_a.adoc:7: a Java listing written inline, not included from compiled code: @Component");
	}

	private static String java(String code) {
		return "<pre class=\"CodeRay highlight\"><code data-lang=\"java\">"
				+ code.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
				+ "</code></pre>";
	}

}
