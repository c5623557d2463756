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

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the calls of a Java listing that a reader cannot follow: a call of an unqualified
 * method that the listing neither declares nor imports statically nor inherits from a
 * type it names (a helper left out of the listing, such as {@code meta(...)}), and a call
 * on a type or a typed variable of the listing to a method that type does not have (an
 * API that changed under the listing). Types are resolved through the listing's imports
 * (and {@code java.lang}) on the documentation's classpath; calls on types it cannot load
 * are left alone. It reads the listing with regular expressions, not a parser: enough for
 * the shapes documentation listings take.
 *
 * @author Kubeop authors
 */
final class ListingCalls {

	private static final Set<String> KEYWORDS = Set.of("if", "for", "while", "switch", "catch", "synchronized",
			"return", "new", "throw", "assert", "super", "this", "else", "try", "case", "yield", "do", "instanceof",
			"default", "finally");

	private static final Pattern UNQUALIFIED_CALL = Pattern.compile("(?<![\\w.$@:])([a-z_][\\w$]*)\\s*\\(");

	private static final Pattern QUALIFIED_CALL = Pattern
		.compile("(?<![\\w.$])([A-Za-z_][\\w$]*)(\\(\\))?\\s*\\.\\s*([a-z_][\\w$]*)\\s*\\(");

	private static final Pattern DECLARATION = Pattern
		.compile("(?<![\\w.$])([A-Z][\\w$]*)\\s*(?:<[^;{}()]*?>)?(?:\\[\\])*\\s+([a-z_][\\w$]*)\\s*(?=[,;)=:])");

	private static final Pattern IMPORT = Pattern.compile("(?m)^\\s*import\\s+(static\\s+)?([\\w.]+?)(\\.\\*)?\\s*;");

	private static final Pattern RECORD = Pattern.compile("\\brecord\\s+\\w+\\s*(?:<[^>]*>)?\\s*\\(");

	private static final Pattern SUPERTYPES = Pattern.compile(
			"\\b(?:extends|implements)\\s+([A-Z][\\w$.]*(?:\\s*<[^{]*?>)?(?:\\s*,\\s*[A-Z][\\w$.]*(?:\\s*<[^{]*?>)?)*)");

	private final ClassLoader classLoader;

	ListingCalls(ClassLoader classLoader) {
		this.classLoader = classLoader;
	}

	/**
	 * Returns the calls of one listing that the reader cannot follow.
	 * @param source the listing's text, as the reader sees it
	 * @return one message per call, naming it
	 */
	List<String> problems(String source) {
		String code = withoutCommentsAndLiterals(source);
		Imports imports = imports(code);
		Set<String> declared = declaredMethods(code);
		Map<String, String> variables = variableTypes(code);
		Set<String> problems = new LinkedHashSet<>();
		Matcher call = UNQUALIFIED_CALL.matcher(code);
		while (call.find()) {
			String name = call.group(1);
			if (KEYWORDS.contains(name) || isDeclaration(code, call.start()) || declared.contains(name)
					|| imports.staticMembers.contains(name) || inherited(code, imports, name)
					|| staticallyImportedFromWildcard(imports, name)) {
				continue;
			}
			problems.add("calls " + name + "(...), which it neither shows nor imports");
		}
		Matcher qualified = QUALIFIED_CALL.matcher(code);
		while (qualified.find()) {
			String receiver = qualified.group(1);
			String method = qualified.group(3);
			String typeName;
			if (Character.isUpperCase(receiver.charAt(0)) && qualified.group(2) == null) {
				typeName = receiver;
			}
			else {
				typeName = variables.get(receiver);
			}
			if (typeName == null) {
				continue;
			}
			resolve(imports, typeName).filter((type) -> !hasMethod(type, method))
				.ifPresent((type) -> problems.add("calls " + receiver + (qualified.group(2) != null ? "()" : "") + "."
						+ method + "(...), but " + type.getName() + " has no method " + method));
		}
		return new ArrayList<>(problems);
	}

	private boolean inherited(String code, Imports imports, String name) {
		Matcher supertypes = SUPERTYPES.matcher(code);
		while (supertypes.find()) {
			for (String supertype : supertypes.group(1).replaceAll("<[^<>]*>", "").split(",")) {
				Optional<Class<?>> type = resolve(imports, supertype.trim());
				if (type.isPresent() && hasMethod(type.get(), name)) {
					return true;
				}
			}
		}
		return false;
	}

	private boolean staticallyImportedFromWildcard(Imports imports, String name) {
		for (String owner : imports.staticWildcards) {
			Optional<Class<?>> type = load(owner);
			if (type.isPresent() && hasMethod(type.get(), name)) {
				return true;
			}
		}
		return false;
	}

	private Optional<Class<?>> resolve(Imports imports, String simpleName) {
		String outer = simpleName.contains(".") ? simpleName.substring(0, simpleName.indexOf('.')) : simpleName;
		String nested = simpleName.contains(".") ? simpleName.substring(simpleName.indexOf('.')).replace('.', '$') : "";
		String imported = imports.types.get(outer);
		if (imported != null) {
			return load(imported + nested);
		}
		for (String pkg : imports.packages) {
			Optional<Class<?>> type = load(pkg + "." + outer + nested);
			if (type.isPresent()) {
				return type;
			}
		}
		return load("java.lang." + outer + nested);
	}

	private Optional<Class<?>> load(String name) {
		try {
			return Optional.of(Class.forName(name, false, this.classLoader));
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return Optional.empty();
		}
	}

	private static boolean hasMethod(Class<?> type, String name) {
		Deque<Class<?>> types = new ArrayDeque<>(List.of(type, Object.class));
		Set<Class<?>> seen = new HashSet<>();
		while (!types.isEmpty()) {
			Class<?> current = types.pop();
			if (!seen.add(current)) {
				continue;
			}
			try {
				for (Method method : current.getDeclaredMethods()) {
					if (method.getName().equals(name) && !Modifier.isPrivate(method.getModifiers())) {
						return true;
					}
				}
			}
			catch (LinkageError ex) {
				// a type whose methods cannot be read here: give it the benefit of the
				// doubt
				return true;
			}
			if (current.getSuperclass() != null) {
				types.push(current.getSuperclass());
			}
			types.addAll(List.of(current.getInterfaces()));
		}
		return false;
	}

	private static boolean isDeclaration(String code, int nameStart) {
		int end = nameStart;
		while (end > 0 && Character.isWhitespace(code.charAt(end - 1))) {
			end--;
		}
		if (end == nameStart || end == 0) {
			return false;
		}
		char before = code.charAt(end - 1);
		if (before == '>' || before == ']') {
			return !code.substring(0, end).stripTrailing().endsWith("->");
		}
		if (!Character.isJavaIdentifierPart(before)) {
			return false;
		}
		int start = end;
		while (start > 0 && Character.isJavaIdentifierPart(code.charAt(start - 1))) {
			start--;
		}
		return !KEYWORDS.contains(code.substring(start, end));
	}

	private static Set<String> declaredMethods(String code) {
		Set<String> declared = new HashSet<>();
		Matcher call = UNQUALIFIED_CALL.matcher(code);
		while (call.find()) {
			if (isDeclaration(code, call.start())) {
				declared.add(call.group(1));
			}
		}
		Matcher record = RECORD.matcher(code);
		while (record.find()) {
			for (String component : components(code, record.end())) {
				String[] words = component.trim().split("\\s+");
				declared.add(words[words.length - 1]);
			}
		}
		return declared;
	}

	// record components, split at the commas outside generic arguments
	private static List<String> components(String code, int start) {
		List<String> components = new ArrayList<>();
		int depth = 0;
		StringBuilder current = new StringBuilder();
		for (int i = start; i < code.length(); i++) {
			char c = code.charAt(i);
			if (c == '<' || c == '(') {
				depth++;
			}
			else if (c == '>' || (c == ')' && depth > 0)) {
				depth--;
			}
			else if (c == ')') {
				break;
			}
			if (c == ',' && depth == 0) {
				components.add(current.toString());
				current.setLength(0);
			}
			else {
				current.append(c);
			}
		}
		if (!current.toString().isBlank()) {
			components.add(current.toString());
		}
		return components.stream().map((component) -> component.replaceAll("@\\w+(\\([^)]*\\))?", "")).toList();
	}

	private static Map<String, String> variableTypes(String code) {
		Map<String, String> variables = new HashMap<>();
		Matcher declaration = DECLARATION.matcher(code);
		while (declaration.find()) {
			variables.putIfAbsent(declaration.group(2), declaration.group(1));
		}
		return variables;
	}

	private static Imports imports(String code) {
		Imports imports = new Imports();
		Matcher matcher = IMPORT.matcher(code);
		while (matcher.find()) {
			String name = matcher.group(2);
			boolean wildcard = matcher.group(3) != null;
			if (matcher.group(1) != null) {
				if (wildcard) {
					imports.staticWildcards.add(name);
				}
				else {
					imports.staticMembers.add(name.substring(name.lastIndexOf('.') + 1));
				}
			}
			else if (wildcard) {
				imports.packages.add(name);
			}
			else {
				imports.types.put(name.substring(name.lastIndexOf('.') + 1), name);
			}
		}
		return imports;
	}

	/**
	 * Returns the listing with comments, string, text block and character literals
	 * blanked, so that only code is searched for calls.
	 * @param source the listing
	 * @return the code alone
	 */
	static String withoutCommentsAndLiterals(String source) {
		StringBuilder code = new StringBuilder(source.length());
		int i = 0;
		while (i < source.length()) {
			if (source.startsWith("//", i)) {
				int end = source.indexOf('\n', i);
				i = (end < 0) ? source.length() : end;
			}
			else if (source.startsWith("/*", i)) {
				int end = source.indexOf("*/", i + 2);
				i = (end < 0) ? source.length() : end + 2;
				code.append(' ');
			}
			else if (source.startsWith("\"\"\"", i)) {
				int end = source.indexOf("\"\"\"", i + 3);
				i = (end < 0) ? source.length() : end + 3;
				code.append("\"\"");
			}
			else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
				char quote = source.charAt(i);
				int j = i + 1;
				while (j < source.length() && source.charAt(j) != quote && source.charAt(j) != '\n') {
					j += (source.charAt(j) == '\\') ? 2 : 1;
				}
				i = Math.min(j + 1, source.length());
				code.append(quote).append(quote);
			}
			else {
				code.append(source.charAt(i));
				i++;
			}
		}
		return code.toString();
	}

	private static final class Imports {

		private final Map<String, String> types = new HashMap<>();

		private final List<String> packages = new ArrayList<>();

		private final Set<String> staticMembers = new HashSet<>();

		private final List<String> staticWildcards = new ArrayList<>();

	}

}
