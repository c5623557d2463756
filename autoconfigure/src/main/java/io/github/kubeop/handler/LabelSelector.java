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

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A label selector in Kubernetes' string form ({@code app=web,tier!=cache,env in (a,b),
 * !legacy,replicas>1}), evaluated in memory for handler filters exactly as the API server
 * evaluates it: the grammar, the validation of keys and values and the matching rules
 * follow {@code labels.Parse} and {@code Requirement.Matches} of
 * {@code k8s.io/apimachinery/pkg/labels/selector.go}. In particular {@code notin} and
 * {@code !=} match objects that lack the key, while {@code in}, {@code =}, {@code ==},
 * {@code >} and {@code <} do not.
 * <p>
 * The official Java client has label matchers ({@code io.kubernetes.client.util.labels})
 * but no parser for the string form, no {@code >}/{@code <}, and its selector fails on
 * objects without labels; so the parser is ours, written after apimachinery's lexer and
 * parser.
 *
 * @author Kubeop authors
 */
final class LabelSelector implements Predicate<Map<String, String>> {

	private static final LabelSelector EVERYTHING = new LabelSelector(List.of());

	private static final Pattern NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");

	private static final Pattern DNS_SUBDOMAIN = Pattern
		.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

	private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");

	private final List<Requirement> requirements;

	private LabelSelector(List<Requirement> requirements) {
		this.requirements = requirements;
	}

	/**
	 * Parses a selector.
	 * @param selector the selector; {@code null} or blank selects everything
	 * @return the selector
	 * @throws IllegalArgumentException saying where the selector does not parse, or which
	 * key or value Kubernetes would reject
	 */
	static LabelSelector parse(String selector) {
		if (selector == null || selector.isBlank()) {
			return EVERYTHING;
		}
		try {
			return new LabelSelector(new Parser(selector).parse());
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Label selector '" + selector + "' is invalid: " + ex.getMessage(), ex);
		}
	}

	@Override
	public boolean test(Map<String, String> labels) {
		Map<String, String> actual = (labels != null) ? labels : Map.of();
		for (Requirement requirement : this.requirements) {
			if (!requirement.matches(actual)) {
				return false;
			}
		}
		return true;
	}

	@Override
	public String toString() {
		return String.join(",", this.requirements.stream().map(Requirement::toString).toList());
	}

	private static void validateKey(String key) {
		String name = key;
		int slash = key.indexOf('/');
		if (slash >= 0) {
			String prefix = key.substring(0, slash);
			name = key.substring(slash + 1);
			if (prefix.isEmpty() || prefix.length() > 253 || !DNS_SUBDOMAIN.matcher(prefix).matches()) {
				throw new IllegalArgumentException("key '" + key
						+ "' has an invalid prefix: a prefix must be a lower-case DNS subdomain of at most 253 characters");
			}
		}
		if (name.isEmpty() || name.length() > 63 || !NAME.matcher(name).matches()) {
			throw new IllegalArgumentException(
					"key '" + key + "' is invalid: a name must be at most 63 alphanumeric characters, '-', '_' or '.', "
							+ "starting and ending with an alphanumeric character");
		}
	}

	private static boolean isInt64(String value) {
		if (!INTEGER.matcher(value).matches()) {
			return false;
		}
		try {
			Long.parseLong(value);
			return true;
		}
		catch (NumberFormatException ex) {
			return false;
		}
	}

	private static void validateValue(String key, String value) {
		if (value.length() > 63 || (!value.isEmpty() && !NAME.matcher(value).matches())) {
			throw new IllegalArgumentException("value '" + value + "' of key '" + key
					+ "' is invalid: a value must be empty or at most 63 alphanumeric characters, '-', '_' or '.', "
					+ "starting and ending with an alphanumeric character");
		}
	}

	/**
	 * The operators of apimachinery's {@code selection} package.
	 */
	enum Operator {

		EXISTS(""), DOES_NOT_EXIST("!"), EQUALS("="), DOUBLE_EQUALS("=="), NOT_EQUALS("!="), IN(" in "),
		NOT_IN(" notin "), GREATER_THAN(">"), LESS_THAN("<");

		private final String symbol;

		Operator(String symbol) {
			this.symbol = symbol;
		}

	}

	/**
	 * One requirement of a selector: a key, an operator and its values.
	 *
	 * @param key the label key
	 * @param operator the operator
	 * @param values the values, empty for {@code exists} and {@code !exists}
	 */
	record Requirement(String key, Operator operator, Set<String> values) {

		Requirement {
			validateKey(key);
			switch (operator) {
				case IN, NOT_IN -> {
					if (values.isEmpty()) {
						throw new IllegalArgumentException(
								"'in' and 'notin' need at least one value for key '" + key + "'");
					}
				}
				case EQUALS, DOUBLE_EQUALS, NOT_EQUALS -> {
					if (values.size() != 1) {
						throw new IllegalArgumentException(
								"'" + operator.symbol + "' needs exactly one value for key '" + key + "'");
					}
				}
				case GREATER_THAN, LESS_THAN -> {
					if (values.size() != 1 || !isInt64(values.iterator().next())) {
						throw new IllegalArgumentException(
								"'" + operator.symbol + "' needs one integer value for key '" + key + "'");
					}
				}
				case EXISTS, DOES_NOT_EXIST -> {
				}
			}
			values.forEach((value) -> validateValue(key, value));
			values = Set.copyOf(values);
		}

		boolean matches(Map<String, String> labels) {
			// a missing key is no value: Set.contains(null) would throw, and notin and !=
			// match it
			String value = labels.get(this.key);
			return switch (this.operator) {
				case IN, EQUALS, DOUBLE_EQUALS -> value != null && this.values.contains(value);
				case NOT_IN, NOT_EQUALS -> value == null || !this.values.contains(value);
				case EXISTS -> labels.containsKey(this.key);
				case DOES_NOT_EXIST -> !labels.containsKey(this.key);
				case GREATER_THAN, LESS_THAN -> compares(value);
			};
		}

		private boolean compares(String value) {
			// a value that is no int64 does not match, as apimachinery's ParseInt fails
			if (value == null || !isInt64(value)) {
				return false;
			}
			long actual = Long.parseLong(value);
			long bound = Long.parseLong(this.values.iterator().next());
			return (this.operator == Operator.GREATER_THAN) ? actual > bound : actual < bound;
		}

		@Override
		public String toString() {
			return switch (this.operator) {
				case EXISTS -> this.key;
				case DOES_NOT_EXIST -> "!" + this.key;
				case IN, NOT_IN -> this.key + this.operator.symbol + "("
						+ String.join(",", this.values.stream().sorted().toList()) + ")";
				default -> this.key + this.operator.symbol + this.values.iterator().next();
			};
		}

	}

	/**
	 * apimachinery's lexer and recursive-descent parser, token for token.
	 */
	private static final class Parser {

		private final String input;

		private final List<Token> tokens = new ArrayList<>();

		private int position;

		Parser(String input) {
			this.input = input;
		}

		List<Requirement> parse() {
			lex();
			List<Requirement> requirements = new ArrayList<>();
			while (true) {
				Token token = lookahead(true);
				switch (token.type) {
					case IDENTIFIER, DOES_NOT_EXIST -> {
						requirements.add(requirement());
						Token next = consume(true);
						if (next.type == TokenType.END) {
							return requirements;
						}
						if (next.type != TokenType.COMMA) {
							throw new IllegalArgumentException(
									"found '" + next.literal + "', expected: ',' or end of string");
						}
						Token afterComma = lookahead(true);
						if (afterComma.type != TokenType.IDENTIFIER && afterComma.type != TokenType.DOES_NOT_EXIST) {
							throw new IllegalArgumentException(
									"found '" + afterComma.literal + "', expected: identifier after ','");
						}
					}
					case END -> {
						return requirements;
					}
					default -> throw new IllegalArgumentException(
							"found '" + token.literal + "', expected: !, identifier, or end of string");
				}
			}
		}

		private Requirement requirement() {
			boolean doesNotExist = false;
			Token token = consume(true);
			if (token.type == TokenType.DOES_NOT_EXIST) {
				doesNotExist = true;
				token = consume(true);
			}
			if (token.type != TokenType.IDENTIFIER) {
				throw new IllegalArgumentException("found '" + token.literal + "', expected: identifier");
			}
			String key = token.literal;
			TokenType next = lookahead(true).type;
			if (next == TokenType.END || next == TokenType.COMMA) {
				return new Requirement(key, doesNotExist ? Operator.DOES_NOT_EXIST : Operator.EXISTS, Set.of());
			}
			if (doesNotExist) {
				// '!key' takes no operator: apimachinery reads the operator it finds
				// and rejects the requirement
				throw new IllegalArgumentException("found '" + lookahead(false).literal + "' after '!" + key
						+ "', expected: ',' or end of string");
			}
			Token operatorToken = consume(false);
			Operator operator = switch (operatorToken.type) {
				case IN -> Operator.IN;
				case NOT_IN -> Operator.NOT_IN;
				case EQUALS -> Operator.EQUALS;
				case DOUBLE_EQUALS -> Operator.DOUBLE_EQUALS;
				case NOT_EQUALS -> Operator.NOT_EQUALS;
				case GREATER_THAN -> Operator.GREATER_THAN;
				case LESS_THAN -> Operator.LESS_THAN;
				default -> throw new IllegalArgumentException(
						"found '" + operatorToken.literal + "', expected: in, notin, =, ==, !=, >, <");
			};
			Set<String> values = (operator == Operator.IN || operator == Operator.NOT_IN) ? values() : exactValue();
			return new Requirement(key, operator, values);
		}

		private Set<String> values() {
			Token open = consume(true);
			if (open.type != TokenType.OPEN_PAREN) {
				throw new IllegalArgumentException("found '" + open.literal + "', expected: '('");
			}
			Token first = lookahead(true);
			switch (first.type) {
				case IDENTIFIER, COMMA -> {
					Set<String> values = identifiers();
					Token close = consume(true);
					if (close.type != TokenType.CLOSE_PAREN) {
						throw new IllegalArgumentException("found '" + close.literal + "', expected: ')'");
					}
					return values;
				}
				case CLOSE_PAREN -> {
					// "()" is the empty value, as in apimachinery
					consume(true);
					return Set.of("");
				}
				default -> throw new IllegalArgumentException(
						"found '" + first.literal + "', expected: ',', ')' or identifier");
			}
		}

		private Set<String> identifiers() {
			Set<String> values = new LinkedHashSet<>();
			while (true) {
				Token token = consume(true);
				switch (token.type) {
					case IDENTIFIER -> {
						values.add(token.literal);
						Token next = lookahead(true);
						if (next.type == TokenType.CLOSE_PAREN) {
							return values;
						}
						if (next.type != TokenType.COMMA) {
							throw new IllegalArgumentException("found '" + next.literal + "', expected: ',' or ')'");
						}
					}
					case COMMA -> {
						// empty values between commas, as in "(,a)", "(a,)" and "(a,,b)"
						if (values.isEmpty()) {
							values.add("");
						}
						Token next = lookahead(true);
						if (next.type == TokenType.CLOSE_PAREN) {
							values.add("");
							return values;
						}
						if (next.type == TokenType.COMMA) {
							consume(true);
							values.add("");
						}
					}
					default -> throw new IllegalArgumentException(
							"found '" + token.literal + "', expected: ',', or identifier");
				}
			}
		}

		private Set<String> exactValue() {
			Token next = lookahead(true);
			if (next.type == TokenType.END || next.type == TokenType.COMMA) {
				return Set.of("");
			}
			Token value = consume(true);
			if (value.type != TokenType.IDENTIFIER) {
				throw new IllegalArgumentException("found '" + value.literal + "', expected: identifier");
			}
			return Set.of(value.literal);
		}

		/**
		 * Returns the current token; in a value position "in" and "notin" are plain
		 * identifiers.
		 */
		private Token lookahead(boolean value) {
			return this.tokens.get(this.position).as(value);
		}

		private Token consume(boolean value) {
			return this.tokens.get(this.position++).as(value);
		}

		private void lex() {
			int i = 0;
			int length = this.input.length();
			while (true) {
				while (i < length && isWhitespace(this.input.charAt(i))) {
					i++;
				}
				if (i >= length) {
					this.tokens.add(new Token(TokenType.END, ""));
					return;
				}
				char c = this.input.charAt(i);
				if (isSpecial(c)) {
					// the longest run of special symbols that is an operator
					Token matched = null;
					int end = i;
					StringBuilder buffer = new StringBuilder();
					while (end < length && isSpecial(this.input.charAt(end))) {
						buffer.append(this.input.charAt(end));
						TokenType type = TokenType.symbol(buffer.toString());
						if (type != null) {
							matched = new Token(type, buffer.toString());
						}
						else if (matched != null) {
							break;
						}
						end++;
					}
					if (matched == null) {
						throw new IllegalArgumentException("error expected: keyword found '" + buffer + "'");
					}
					this.tokens.add(matched);
					i += matched.literal.length();
				}
				else {
					int end = i;
					while (end < length && !isSpecial(this.input.charAt(end))
							&& !isWhitespace(this.input.charAt(end))) {
						end++;
					}
					String word = this.input.substring(i, end);
					TokenType keyword = word.equals("in") ? TokenType.IN
							: word.equals("notin") ? TokenType.NOT_IN : null;
					this.tokens.add(new Token((keyword != null) ? keyword : TokenType.IDENTIFIER, word));
					i = end;
				}
			}
		}

		private static boolean isWhitespace(char c) {
			return c == ' ' || c == '\t' || c == '\r' || c == '\n';
		}

		private static boolean isSpecial(char c) {
			return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
		}

	}

	private enum TokenType {

		END, CLOSE_PAREN, COMMA, DOES_NOT_EXIST, DOUBLE_EQUALS, EQUALS, GREATER_THAN, IDENTIFIER, IN, LESS_THAN,
		NOT_EQUALS, NOT_IN, OPEN_PAREN;

		static TokenType symbol(String symbol) {
			return switch (symbol) {
				case ")" -> CLOSE_PAREN;
				case "," -> COMMA;
				case "!" -> DOES_NOT_EXIST;
				case "==" -> DOUBLE_EQUALS;
				case "=" -> EQUALS;
				case ">" -> GREATER_THAN;
				case "<" -> LESS_THAN;
				case "!=" -> NOT_EQUALS;
				case "(" -> OPEN_PAREN;
				default -> null;
			};
		}

	}

	private record Token(TokenType type, String literal) {

		Token as(boolean value) {
			return (value && (this.type == TokenType.IN || this.type == TokenType.NOT_IN))
					? new Token(TokenType.IDENTIFIER, this.literal) : this;
		}

	}

}
