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

package io.github.kubeop.maven;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOptions;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.common.types.TypeParamType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerBuilder;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import io.github.kubeop.resource.ValidationRule;

/**
 * Checks the CEL validation rules ({@code x-kubernetes-validations}) of a generated
 * CustomResourceDefinition schema before the API server sees them, so that a rule it
 * would reject fails the build with the class and field it came from. What the API server
 * checks when a CRD is written is checked the same way here: the structure of each rule
 * (a message without line breaks, a known reason, a {@code fieldPath} that names a field,
 * {@code optionalOldSelf} only with {@code oldSelf}, no transition rule where old and new
 * values cannot be correlated) and the rule itself, compiled with
 * <a href="https://github.com/google/cel-java">cel-java</a> against the CEL types the API
 * server derives from the schema ({@code self}, {@code oldSelf}) with the function
 * libraries of its CEL environment (Kubernetes' lists, regex, URLs, quantities, IPs,
 * CIDRs, formats and semantic versions, and CEL's strings, sets, optionals and
 * two-variable comprehensions). What it does not do is the API server's cost estimate: a
 * rule over an unbounded list of unbounded strings can still be refused for its cost,
 * which a {@code maxItems} or {@code maxLength} on the field avoids, and which
 * {@link CrdVerifier} (the {@code verify-crds} goal) leaves to a real API server.
 *
 * @author Kubeop authors
 */
final class ValidationRuleChecker {

	/**
	 * Where a rule was declared, kept on the rule while the schema is generated and
	 * removed by {@link #check}.
	 */
	static final String ORIGIN = "x-kubeop-origin";

	private static final Set<String> CEL_RESERVED = Set.of("true", "false", "null", "in", "as", "break", "const",
			"continue", "else", "for", "function", "if", "import", "let", "loop", "package", "namespace", "return",
			"var", "void", "while");

	private static final Set<String> REASONS = Set.of("FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired",
			"FieldValueDuplicate");

	private static final java.util.regex.Pattern IDENTIFIER = java.util.regex.Pattern
		.compile("[a-zA-Z_.\\-/][a-zA-Z0-9_.\\-/]*");

	private static final CelOptions OPTIONS = CelOptions.current()
		.enableOptionalSyntax(true)
		.enableHeterogeneousNumericComparisons(true)
		.build();

	private static final List<CelFunctionDecl> KUBERNETES_FUNCTIONS = kubernetesFunctions();

	private final String resourceClass;

	private final List<String> errors = new ArrayList<>();

	private final Map<String, CelType> structTypes = new HashMap<>();

	private final CelTypeProvider typeProvider = new CelTypeProvider() {

		@Override
		public ImmutableCollection<CelType> types() {
			return ImmutableList.copyOf(ValidationRuleChecker.this.structTypes.values());
		}

		@Override
		public Optional<CelType> findType(String typeName) {
			return Optional.ofNullable(ValidationRuleChecker.this.structTypes.get(typeName));
		}

	};

	private ValidationRuleChecker(String resourceClass) {
		this.resourceClass = resourceClass;
	}

	/**
	 * Checks every rule of a version's schema and removes the origins the generator left
	 * on them.
	 * @param resourceClass the class whose schema it is, for messages
	 * @param openApiSchema the {@code openAPIV3Schema}
	 * @param compile whether to compile the rules, besides checking their structure
	 * @throws IllegalArgumentException naming the class and field of each rule the API
	 * server would reject
	 */
	static void check(Class<?> resourceClass, ObjectNode openApiSchema, boolean compile) {
		ValidationRuleChecker checker = new ValidationRuleChecker(resourceClass.getName());
		CelType rootType = checker.celType(openApiSchema, "kubeop.root", true);
		checker.visit(openApiSchema, "", rootType, true, null, compile);
		if (!checker.errors.isEmpty()) {
			throw new IllegalArgumentException("Invalid CEL validation rule" + ((checker.errors.size() > 1) ? "s" : "")
					+ " in the CustomResourceDefinition of " + resourceClass.getName() + ":\n  - "
					+ String.join("\n  - ", checker.errors));
		}
	}

	private void visit(ObjectNode schema, String path, CelType type, boolean root, String uncorrelatable,
			boolean compile) {
		JsonNode rules = schema.get("x-kubernetes-validations");
		if (rules instanceof ArrayNode array) {
			for (JsonNode rule : array) {
				checkRule((ObjectNode) rule, schema, path, type, uncorrelatable, compile);
			}
			for (JsonNode rule : array) {
				((ObjectNode) rule).remove(ORIGIN);
			}
		}
		JsonNode properties = schema.get("properties");
		if (properties instanceof ObjectNode objectProperties) {
			boolean atomicMap = "atomic".equals(schema.path("x-kubernetes-map-type").asText());
			for (Iterator<Map.Entry<String, JsonNode>> fields = objectProperties.fields(); fields.hasNext();) {
				Map.Entry<String, JsonNode> field = fields.next();
				if (root && field.getKey().equals("metadata")) {
					continue;
				}
				CelType fieldType = (type instanceof StructType struct)
						? struct.findField(escape(field.getKey())).map(StructType.Field::type).orElse(SimpleType.DYN)
						: SimpleType.DYN;
				String fieldPath = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
				visit((ObjectNode) field.getValue(), fieldPath, fieldType, false,
						(atomicMap && uncorrelatable == null) ? displayPath(path) : uncorrelatable, compile);
			}
		}
		JsonNode additional = schema.get("additionalProperties");
		if (additional instanceof ObjectNode additionalSchema) {
			CelType valueType = (type instanceof MapType map) ? map.parameters().get(1) : SimpleType.DYN;
			visit(additionalSchema, path + "[*]", valueType, false, uncorrelatable, compile);
		}
		for (String combination : List.of("allOf", "anyOf", "oneOf")) {
			if (schema.get(combination) instanceof ArrayNode parts) {
				for (JsonNode part : parts) {
					if (part instanceof ObjectNode partSchema) {
						visit(partSchema, path, type, false, uncorrelatable, compile);
					}
				}
			}
		}
		JsonNode items = schema.get("items");
		if (items instanceof ObjectNode itemSchema) {
			CelType itemType = (type instanceof ListType list) ? list.parameters().get(0) : SimpleType.DYN;
			boolean correlatable = "map".equals(schema.path("x-kubernetes-list-type").asText());
			visit(itemSchema, path + "[*]", itemType, false,
					(!correlatable && uncorrelatable == null) ? displayPath(path) : uncorrelatable, compile);
		}
	}

	private void checkRule(ObjectNode rule, ObjectNode schema, String path, CelType selfType, String uncorrelatable,
			boolean compile) {
		String expression = rule.path("rule").asText("");
		String where = rule.has(ORIGIN) ? rule.get(ORIGIN).asText() : "the schema at '" + displayPath(path) + "'";
		String prefix = "rule \"" + expression + "\" on " + where + ": ";
		if (expression.isBlank()) {
			this.errors.add(prefix + "the rule is empty");
			return;
		}
		if (rule.has("message")) {
			String message = rule.get("message").asText();
			if (message.isBlank()) {
				this.errors.add(prefix + "the message must not be blank if given");
			}
			if (message.contains("\n")) {
				this.errors.add(prefix + "the message must not contain line breaks");
			}
		}
		else if (expression.contains("\n")) {
			this.errors.add(prefix + "a rule with line breaks needs a message");
		}
		if (rule.has("reason") && !REASONS.contains(rule.get("reason").asText())) {
			this.errors.add(prefix + "the reason must be one of " + REASONS);
		}
		if (rule.has("messageExpression") && rule.get("messageExpression").asText().isBlank()) {
			this.errors.add(prefix + "the messageExpression must not be blank if given");
		}
		if (rule.has("fieldPath")) {
			String fieldPathError = fieldPathError(schema, rule.get("fieldPath").asText());
			if (fieldPathError != null) {
				this.errors.add(prefix + "fieldPath '" + rule.get("fieldPath").asText() + "' " + fieldPathError);
			}
		}
		boolean optionalOldSelf = rule.path("optionalOldSelf").asBoolean(false);
		boolean usesOldSelf;
		if (compile) {
			CelValidationResult result = compile(expression, selfType, optionalOldSelf);
			if (result.hasError()) {
				this.errors.add(prefix + "it does not compile: " + result.getErrorString().replace("\n", "\n      "));
				return;
			}
			usesOldSelf = usesOldSelf(result);
			String resultType = resultType(result);
			if (!"bool".equals(resultType)) {
				this.errors.add(prefix + "it must evaluate to a bool, not " + resultType);
			}
			if (rule.has("messageExpression")) {
				CelValidationResult message = compile(rule.get("messageExpression").asText(), selfType,
						optionalOldSelf);
				if (message.hasError()) {
					this.errors.add(prefix + "its messageExpression does not compile: "
							+ message.getErrorString().replace("\n", "\n      "));
				}
				else if (!"string".equals(resultType(message))) {
					this.errors
						.add(prefix + "its messageExpression must evaluate to a string, not " + resultType(message));
				}
			}
		}
		else {
			usesOldSelf = java.util.regex.Pattern.compile("\\boldSelf\\b").matcher(expression).find();
		}
		if (optionalOldSelf && !usesOldSelf) {
			this.errors.add(prefix + "optionalOldSelf is set but the rule does not read oldSelf");
		}
		if (usesOldSelf && uncorrelatable != null) {
			this.errors.add(prefix + "a transition rule (one that reads oldSelf) cannot sit under '" + uncorrelatable
					+ "', whose items the API server cannot match between the old and the new object"
					+ " (a list needs x-kubernetes-list-type: map for that)");
		}
	}

	private CelValidationResult compile(String expression, CelType selfType, boolean optionalOldSelf) {
		CelCompilerBuilder builder = CelCompilerFactory.standardCelCompilerBuilder()
			.setOptions(OPTIONS)
			.setStandardMacros(CelStandardMacro.STANDARD_MACROS)
			.setTypeProvider(this.typeProvider)
			.addLibraries(CelExtensions.strings(), CelExtensions.sets(OPTIONS), CelExtensions.optional(),
					CelExtensions.comprehensions(), CelExtensions.lists())
			.addFunctionDeclarations(KUBERNETES_FUNCTIONS)
			.addVar("self", selfType)
			.addVar("oldSelf", optionalOldSelf ? OptionalType.create(selfType) : selfType);
		CelCompiler compiler = builder.build();
		return compiler.compile(expression);
	}

	private static boolean usesOldSelf(CelValidationResult result) {
		try {
			return result.getAst()
				.getReferenceMap()
				.values()
				.stream()
				.anyMatch((reference) -> reference.name().equals("oldSelf"));
		}
		catch (dev.cel.common.CelValidationException ex) {
			return false;
		}
	}

	private static String resultType(CelValidationResult result) {
		try {
			CelType type = result.getAst().getResultType();
			return (type == SimpleType.DYN) ? "dyn" : type.name();
		}
		catch (dev.cel.common.CelValidationException ex) {
			return "an error";
		}
	}

	// the CEL type the API server gives a schema
	// (k8s.io/apiserver/pkg/cel/common/schemas.go)
	private CelType celType(JsonNode schema, String typeName, boolean root) {
		if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
			return SimpleType.DYN;
		}
		String type = schema.path("type").asText("");
		switch (type) {
			case "object" -> {
				if (schema.has("properties")) {
					Map<String, CelType> fields = new LinkedHashMap<>();
					Set<String> fieldNames = new java.util.LinkedHashSet<>();
					for (Iterator<Map.Entry<String, JsonNode>> properties = schema.get("properties")
						.fields(); properties.hasNext();) {
						Map.Entry<String, JsonNode> property = properties.next();
						String name = escape(property.getKey());
						if (name == null) {
							continue;
						}
						// the API server finds a reserved word under its own name too
						if (CEL_RESERVED.contains(property.getKey())) {
							fieldNames.add(property.getKey());
						}
						if (root && property.getKey().equals("metadata")) {
							fields.put(name, metadataType(typeName + ".metadata"));
						}
						else {
							fields.put(name, celType(property.getValue(), typeName + "." + name, false));
						}
					}
					fieldNames.addAll(fields.keySet());
					StructType struct = StructType.create(typeName, ImmutableSet.copyOf(fieldNames), (field) -> Optional
						.ofNullable(fields.get(CEL_RESERVED.contains(field) ? escape(field) : field)));
					this.structTypes.put(typeName, struct);
					return struct;
				}
				if (schema.get("additionalProperties") instanceof ObjectNode values) {
					return MapType.create(SimpleType.STRING, celType(values, typeName + ".@value", false));
				}
				if (schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
					return SimpleType.DYN;
				}
				StructType empty = StructType.create(typeName, ImmutableSet.of(), (field) -> Optional.empty());
				this.structTypes.put(typeName, empty);
				return empty;
			}
			case "array" -> {
				return ListType.create(schema.has("items") ? celType(schema.get("items"), typeName + ".@item", false)
						: SimpleType.DYN);
			}
			case "string" -> {
				return switch (schema.path("format").asText("")) {
					case "byte" -> SimpleType.BYTES;
					case "duration" -> SimpleType.DURATION;
					case "date", "date-time" -> SimpleType.TIMESTAMP;
					default -> SimpleType.STRING;
				};
			}
			case "integer" -> {
				return SimpleType.INT;
			}
			case "number" -> {
				return SimpleType.DOUBLE;
			}
			case "boolean" -> {
				return SimpleType.BOOL;
			}
			default -> {
				return SimpleType.DYN;
			}
		}
	}

	// of an object's metadata, rules can read only the name and generateName
	private CelType metadataType(String typeName) {
		Map<String, CelType> fields = Map.of("name", SimpleType.STRING, "generateName", SimpleType.STRING);
		StructType struct = StructType.create(typeName, ImmutableSet.copyOf(fields.keySet()),
				(field) -> Optional.ofNullable(fields.get(field)));
		this.structTypes.put(typeName, struct);
		return struct;
	}

	/**
	 * Returns the name under which CEL reads a property, as the API server escapes it
	 * ({@code namespace} becomes {@code __namespace__}), or {@code null} for a name CEL
	 * cannot read.
	 * @param property the property name
	 * @return the CEL field name
	 */
	static String escape(String property) {
		if (CEL_RESERVED.contains(property)) {
			return "__" + property + "__";
		}
		if (!IDENTIFIER.matcher(property).matches()) {
			return null;
		}
		return property.replace("__", "__underscores__")
			.replace(".", "__dot__")
			.replace("-", "__dash__")
			.replace("/", "__slash__");
	}

	// the paths the API server accepts as fieldPath: .name and ['name'] steps through
	// properties and map keys, no list indexes
	private static String fieldPathError(ObjectNode schema, String fieldPath) {
		if (fieldPath.isBlank()) {
			return "must not be blank if given";
		}
		if (fieldPath.contains("\n")) {
			return "must not contain line breaks";
		}
		Matcher step = java.util.regex.Pattern.compile("\\.([^.\\[\\]]+)|\\['((?:[^'\\\\]|\\\\.)*)'\\]")
			.matcher(fieldPath);
		JsonNode current = schema;
		int position = 0;
		while (position < fieldPath.length()) {
			if (!step.find(position) || step.start() != position) {
				return "is not a path of .field or ['field'] steps";
			}
			String name = (step.group(1) != null) ? step.group(1) : step.group(2).replace("\\'", "'");
			if (current.path("properties").has(name)) {
				current = current.path("properties").path(name);
			}
			else if (current.has("additionalProperties") && !current.has("properties")) {
				current = current.path("additionalProperties");
			}
			else {
				return "does not refer to a field of the schema ('" + name + "' is not one)";
			}
			position = step.end();
		}
		return null;
	}

	private static String displayPath(String path) {
		return path.isEmpty() ? "<root>" : path;
	}

	// the functions of the API server's CEL environment that CEL itself does not declare
	// (k8s.io/apiserver/pkg/cel/library)
	private static List<CelFunctionDecl> kubernetesFunctions() {
		CelType url = OpaqueType.create("kubernetes.URL");
		CelType quantity = OpaqueType.create("kubernetes.Quantity");
		CelType ip = OpaqueType.create("net.IP");
		CelType cidr = OpaqueType.create("net.CIDR");
		CelType semver = OpaqueType.create("kubernetes.Semver");
		CelType format = OpaqueType.create("kubernetes.NamedFormat");
		CelType string = SimpleType.STRING;
		CelType bool = SimpleType.BOOL;
		CelType integer = SimpleType.INT;
		CelType typeA = TypeParamType.create("A");
		List<CelFunctionDecl> functions = new ArrayList<>();
		// lists
		List<CelType> comparable = List.of(SimpleType.INT, SimpleType.UINT, SimpleType.DOUBLE, SimpleType.BOOL,
				SimpleType.DURATION, SimpleType.TIMESTAMP, SimpleType.STRING, SimpleType.BYTES);
		List<CelType> summable = List.of(SimpleType.INT, SimpleType.UINT, SimpleType.DOUBLE, SimpleType.DURATION);
		functions.add(templated("isSorted", comparable, (element) -> bool));
		functions.add(templated("sum", summable, (element) -> element));
		functions.add(templated("min", comparable, (element) -> element));
		functions.add(templated("max", comparable, (element) -> element));
		functions.add(function("indexOf",
				CelOverloadDecl.newMemberOverload("list_a_index_of_int", integer, ListType.create(typeA), typeA)));
		functions.add(function("lastIndexOf",
				CelOverloadDecl.newMemberOverload("list_a_last_index_of_int", integer, ListType.create(typeA), typeA)));
		// regex
		functions
			.add(function("find", CelOverloadDecl.newMemberOverload("string_find_string", string, string, string)));
		functions.add(function("findAll",
				CelOverloadDecl.newMemberOverload("string_find_all_string", ListType.create(string), string, string),
				CelOverloadDecl.newMemberOverload("string_find_all_string_int", ListType.create(string), string, string,
						integer)));
		// URLs
		functions.add(function("url", CelOverloadDecl.newGlobalOverload("string_to_url", url, string)));
		functions.add(function("isURL", CelOverloadDecl.newGlobalOverload("is_url_string", bool, string)));
		for (String getter : List.of("getScheme", "getHost", "getHostname", "getPort", "getEscapedPath")) {
			functions.add(function(getter, CelOverloadDecl.newMemberOverload("url_" + getter, string, url)));
		}
		functions.add(function("getQuery", CelOverloadDecl.newMemberOverload("url_get_query",
				MapType.create(string, ListType.create(string)), url)));
		// quantities
		functions.add(function("quantity", CelOverloadDecl.newGlobalOverload("string_to_quantity", quantity, string)));
		functions.add(function("isQuantity", CelOverloadDecl.newGlobalOverload("is_quantity_string", bool, string)));
		functions.add(function("sign", CelOverloadDecl.newMemberOverload("quantity_sign", integer, quantity)));
		functions.add(function("isInteger", CelOverloadDecl.newMemberOverload("quantity_is_integer", bool, quantity)));
		functions.add(function("asInteger", CelOverloadDecl.newMemberOverload("quantity_get_int", integer, quantity)));
		functions.add(function("asApproximateFloat",
				CelOverloadDecl.newMemberOverload("quantity_get_float", SimpleType.DOUBLE, quantity)));
		functions.add(function("add", CelOverloadDecl.newMemberOverload("quantity_add", quantity, quantity, quantity),
				CelOverloadDecl.newMemberOverload("quantity_add_int", quantity, quantity, integer)));
		functions.add(function("sub", CelOverloadDecl.newMemberOverload("quantity_sub", quantity, quantity, quantity),
				CelOverloadDecl.newMemberOverload("quantity_sub_int", quantity, quantity, integer)));
		// comparisons of quantities and semantic versions
		functions.add(function("isGreaterThan",
				CelOverloadDecl.newMemberOverload("quantity_is_greater_than", bool, quantity, quantity),
				CelOverloadDecl.newMemberOverload("semver_is_greater_than", bool, semver, semver)));
		functions.add(function("isLessThan",
				CelOverloadDecl.newMemberOverload("quantity_is_less_than", bool, quantity, quantity),
				CelOverloadDecl.newMemberOverload("semver_is_less_than", bool, semver, semver)));
		functions.add(function("compareTo",
				CelOverloadDecl.newMemberOverload("quantity_compare_to", integer, quantity, quantity),
				CelOverloadDecl.newMemberOverload("semver_compare_to", integer, semver, semver)));
		// semantic versions
		functions.add(function("semver", CelOverloadDecl.newGlobalOverload("string_to_semver", semver, string),
				CelOverloadDecl.newGlobalOverload("string_bool_to_semver", semver, string, bool)));
		functions.add(function("isSemver", CelOverloadDecl.newGlobalOverload("is_semver_string", bool, string),
				CelOverloadDecl.newGlobalOverload("is_semver_string_bool", bool, string, bool)));
		for (String part : List.of("major", "minor", "patch")) {
			functions.add(function(part, CelOverloadDecl.newMemberOverload("semver_" + part, integer, semver)));
		}
		// IPs and CIDRs
		functions.add(function("ip", CelOverloadDecl.newGlobalOverload("string_to_ip", ip, string),
				CelOverloadDecl.newMemberOverload("cidr_ip", ip, cidr)));
		functions.add(function("ip.isCanonical", CelOverloadDecl.newGlobalOverload("ip_is_canonical", bool, string)));
		functions.add(function("isIP", CelOverloadDecl.newGlobalOverload("is_ip", bool, string)));
		functions.add(function("family", CelOverloadDecl.newMemberOverload("ip_family", integer, ip)));
		for (String test : List.of("isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast",
				"isGlobalUnicast")) {
			functions.add(function(test, CelOverloadDecl.newMemberOverload("ip_" + test, bool, ip)));
		}
		functions.add(function("cidr", CelOverloadDecl.newGlobalOverload("string_to_cidr", cidr, string)));
		functions.add(function("isCIDR", CelOverloadDecl.newGlobalOverload("is_cidr", bool, string)));
		functions.add(
				function("containsIP", CelOverloadDecl.newMemberOverload("cidr_contains_ip_string", bool, cidr, string),
						CelOverloadDecl.newMemberOverload("cidr_contains_ip_ip", bool, cidr, ip)));
		functions.add(function("containsCIDR",
				CelOverloadDecl.newMemberOverload("cidr_contains_cidr_string", bool, cidr, string),
				CelOverloadDecl.newMemberOverload("cidr_contains_cidr", bool, cidr, cidr)));
		functions.add(function("prefixLength", CelOverloadDecl.newMemberOverload("cidr_prefix_length", integer, cidr)));
		functions.add(function("masked", CelOverloadDecl.newMemberOverload("cidr_masked", cidr, cidr)));
		functions.add(function("string", CelOverloadDecl.newGlobalOverload("ip_to_string", string, ip),
				CelOverloadDecl.newGlobalOverload("cidr_to_string", string, cidr)));
		// named formats
		for (String name : List.of("dns1123Label", "dns1123Subdomain", "dns1035Label", "qualifiedName",
				"dns1123LabelPrefix", "dns1123SubdomainPrefix", "dns1035LabelPrefix", "labelValue", "uri", "uuid",
				"byte", "date", "datetime")) {
			functions.add(function("format." + name, CelOverloadDecl.newGlobalOverload("format." + name, format)));
		}
		functions.add(function("format.named",
				CelOverloadDecl.newGlobalOverload("format-named", OptionalType.create(format), string)));
		functions.add(function("validate", CelOverloadDecl.newMemberOverload("format-validate",
				OptionalType.create(ListType.create(string)), format, string)));
		return functions;
	}

	private static CelFunctionDecl templated(String name, List<CelType> elements,
			java.util.function.UnaryOperator<CelType> result) {
		List<CelOverloadDecl> overloads = new ArrayList<>();
		for (CelType element : elements) {
			overloads.add(CelOverloadDecl.newMemberOverload("list_" + element.name() + "_" + name,
					result.apply(element), ListType.create(element)));
		}
		return CelFunctionDecl.newFunctionDeclaration(name, overloads);
	}

	private static CelFunctionDecl function(String name, CelOverloadDecl... overloads) {
		return CelFunctionDecl.newFunctionDeclaration(name, overloads);
	}

	/**
	 * Returns the {@code x-kubernetes-validations} entry of a rule annotation.
	 * @param rule the annotation
	 * @param origin where it was declared, for messages
	 * @return the entry, with the origin until {@link #check} removes it
	 */
	static ObjectNode write(ValidationRule rule, String origin) {
		ObjectNode entry = JsonNodeFactory.instance.objectNode();
		entry.put("rule", rule.value());
		if (!rule.message().isEmpty()) {
			entry.put("message", rule.message());
		}
		if (!rule.messageExpression().isEmpty()) {
			entry.put("messageExpression", rule.messageExpression());
		}
		if (rule.reason() != ValidationRule.Reason.UNSPECIFIED) {
			entry.put("reason", rule.reason().apiValue());
		}
		if (!rule.fieldPath().isEmpty()) {
			entry.put("fieldPath", rule.fieldPath());
		}
		if (rule.optionalOldSelf()) {
			entry.put("optionalOldSelf", true);
		}
		entry.put(ORIGIN, origin);
		return entry;
	}

}
