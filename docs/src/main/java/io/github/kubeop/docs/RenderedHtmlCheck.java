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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Checks the rendered reference HTML for snippets that lost their markup: a listing whose
 * XML was passed through as HTML tags (a {@code subs} attribute that drops
 * {@code specialcharacters}), an empty listing, a leftover {@code include::} directive or
 * an unresolved attribute reference. Asciidoctor renders all of these without a warning.
 * It also checks that every Java listing is complete (see {@link ListingCalls}: no call
 * of a method the listing does not show, import or inherit, and no call of a method its
 * receiver's type lacks), and that the API reference is there and every link into it
 * resolves.
 *
 * @author Kubeop authors
 */
public final class RenderedHtmlCheck {

	private static final Pattern LISTING = Pattern.compile("<pre[^>]*>(.*?)</pre>", Pattern.DOTALL);

	private static final Pattern TAG = Pattern.compile("</?([A-Za-z][A-Za-z0-9-]*)[^>]*>");

	/**
	 * Tags that the syntax highlighter and callouts put into a listing; any other tag in
	 * a listing is the snippet's own markup left unescaped.
	 */
	private static final List<String> LISTING_TAGS = List.of("code", "span", "b", "i", "em", "strong", "a");

	private static final Pattern API_LINK = Pattern.compile("href=\"(apidocs/[^\"#]*)(#[^\"]*)?\"");

	private static final Pattern UNRESOLVED_ATTRIBUTE = Pattern.compile("\\{[a-z][a-z0-9]*(-[a-z0-9]+)+\\}");

	private RenderedHtmlCheck() {
	}

	public static void main(String[] args) throws IOException {
		List<String> problems = new ArrayList<>();
		Path directory = Path.of(args[0]);
		try (Stream<Path> files = Files.list(directory)) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".html")).sorted().toList()) {
				String html = Files.readString(file, StandardCharsets.UTF_8);
				problems.addAll(problems(file.getFileName().toString(), html));
				problems.addAll(brokenApiLinks(directory, file.getFileName().toString(), html));
			}
		}
		if (!Files.isRegularFile(directory.resolve("apidocs/index.html"))) {
			problems.add("the API reference (apidocs/index.html) was not built");
		}
		if (args.length > 1) {
			try (Stream<Path> sources = Files.list(Path.of(args[1]))) {
				for (Path source : sources.filter((path) -> path.toString().endsWith(".adoc")).sorted().toList()) {
					problems.addAll(uncompiledJavaListings(source.getFileName().toString(),
							Files.readString(source, StandardCharsets.UTF_8)));
				}
			}
		}
		if (!problems.isEmpty()) {
			throw new IllegalStateException("The rendered documentation is broken:\n" + String.join("\n", problems));
		}
	}

	/**
	 * Returns what is broken in one rendered HTML page.
	 * @param name the page's name, used in the messages
	 * @param html the rendered page
	 * @return one message per problem, empty when the page is sound
	 */
	static List<String> problems(String name, String html) {
		List<String> problems = new ArrayList<>();
		Matcher listing = LISTING.matcher(html);
		int number = 0;
		while (listing.find()) {
			number++;
			String content = listing.group(1);
			Matcher tag = TAG.matcher(content);
			while (tag.find()) {
				if (!LISTING_TAGS.contains(tag.group(1).toLowerCase())) {
					problems.add(name + ": listing " + number + " has unescaped markup " + tag.group()
							+ " (a subs attribute without specialcharacters?)");
				}
			}
			String text = unescape(TAG.matcher(content).replaceAll(""));
			if (text.isBlank()) {
				problems.add(name + ": listing " + number + " is empty");
			}
			if (content.contains("data-lang=\"java\"")) {
				for (String call : new ListingCalls(RenderedHtmlCheck.class.getClassLoader()).problems(text)) {
					problems.add(name + ": Java listing " + number + " (" + firstLine(text) + ") " + call);
				}
			}
		}
		if (html.contains("include::")) {
			problems.add(name + ": an include:: directive was not resolved");
		}
		Matcher attribute = UNRESOLVED_ATTRIBUTE.matcher(html);
		while (attribute.find()) {
			problems.add(name + ": attribute reference " + attribute.group() + " was not resolved");
		}
		return problems;
	}

	/**
	 * Returns the links of one page into the API reference whose target does not exist.
	 * @param directory the rendered documentation's directory
	 * @param name the page's name, used in the messages
	 * @param html the rendered page
	 * @return one message per broken link
	 */
	static List<String> brokenApiLinks(Path directory, String name, String html) {
		List<String> problems = new ArrayList<>();
		Matcher link = API_LINK.matcher(html);
		while (link.find()) {
			if (!Files.isRegularFile(directory.resolve(link.group(1)))) {
				problems.add(name + ": link to the API reference " + link.group(1) + " leads nowhere");
			}
		}
		return problems;
	}

	/**
	 * Returns the Java listings of one AsciiDoc source that are written inline instead of
	 * included from compiled code: a Java listing may hold {@code include::} lines and
	 * closing braces only, so that every listing compiles.
	 * @param name the source's name, used in the messages
	 * @param adoc the AsciiDoc source
	 * @return one message per inline Java listing
	 */
	static List<String> uncompiledJavaListings(String name, String adoc) {
		List<String> problems = new ArrayList<>();
		List<String> lines = adoc.lines().toList();
		for (int i = 0; i < lines.size(); i++) {
			if (!lines.get(i).startsWith("[source,java") || i + 1 >= lines.size() || !lines.get(i + 1).equals("----")) {
				continue;
			}
			int end = i + 2;
			while (end < lines.size() && !lines.get(end).equals("----")) {
				String line = lines.get(end).strip();
				if (!line.isEmpty() && !line.startsWith("include::") && !line.equals("}")) {
					problems.add(name + ":" + (i + 1) + ": a Java listing written inline, not included from "
							+ "compiled code: " + line);
					break;
				}
				end++;
			}
			i = end;
		}
		return problems;
	}

	private static String firstLine(String text) {
		return text.strip().lines().findFirst().orElse("").strip();
	}

	private static String unescape(String html) {
		return html.replace("&lt;", "<")
			.replace("&gt;", ">")
			.replace("&quot;", "\"")
			.replace("&#39;", "'")
			.replace("&#8203;", "")
			.replace("&amp;", "&");
	}

}
