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

import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.classmate.ResolvedType;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.CustomPropertyDefinition;
import com.github.victools.jsonschema.generator.FieldScope;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaGenerationContext;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.generator.TypeScope;
import com.github.victools.jsonschema.module.jakarta.validation.JakartaValidationModule;
import com.github.victools.jsonschema.module.jakarta.validation.JakartaValidationOption;
import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.Default;
import io.github.kubeop.resource.KubernetesResource;
import io.github.kubeop.resource.PreserveUnknownFields;
import io.github.kubeop.resource.ResourceType;
import io.github.kubeop.resource.ValidationRule;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Condition;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Generates the CustomResourceDefinition of a typed custom resource class: a structural
 * OpenAPI v3 schema of its spec and status with the constraints of its Jakarta Validation
 * annotations, and the names, scope, subresources and printer columns of its
 * {@link KubernetesResource}. The schema comes from the victools JSON schema generator
 * with Kubernetes' own types ({@link IntOrString}, {@link Quantity}, {@link V1Condition}
 * lists, date-times) mapped as controller-gen maps them; every schema is inlined, as the
 * API server accepts no {@code $ref}. {@link ValidationRule} annotations become
 * {@code x-kubernetes-validations}, checked by {@link ValidationRuleChecker} before they
 * are written. The classes that declare the versions of one kind make one
 * CustomResourceDefinition with a version each, one of them the storage version, and a
 * {@code conversion} section: {@code None} for one version, a {@link ConversionWebhook}
 * when one is configured for several.
 *
 * @author Kubeop authors
 */
public final class CrdGenerator {

	// the pattern controller-gen writes for resource.Quantity
	static final String QUANTITY_PATTERN = "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

	private static final Pattern KUBE_VERSION = Pattern.compile("v([0-9]+)(?:(alpha|beta)([0-9]+))?");

	private static final Set<Class<?>> JDK_VALUE_TYPES = Set.of(String.class, Boolean.class, Byte.class, Short.class,
			Integer.class, Long.class, Float.class, Double.class, Character.class, BigDecimal.class, BigInteger.class,
			OffsetDateTime.class, ZonedDateTime.class, Instant.class, LocalDate.class);

	private final ObjectMapper objectMapper = new ObjectMapper();

	private final SchemaGenerator schemaGenerator;

	private final ConversionWebhook conversionWebhook;

	private final boolean compileRules;

	/**
	 * Creates a generator that writes no conversion webhook and compiles the validation
	 * rules.
	 */
	public CrdGenerator() {
		this(null, true);
	}

	/**
	 * Creates a generator.
	 * @param conversionWebhook the conversion webhook of kinds with several versions,
	 * {@code null} for none (the API server then only rewrites {@code apiVersion})
	 * @param compileRules whether to compile the CEL validation rules against their
	 * schema, besides checking their structure
	 */
	public CrdGenerator(ConversionWebhook conversionWebhook, boolean compileRules) {
		this.conversionWebhook = conversionWebhook;
		this.compileRules = compileRules;
		SchemaGeneratorConfigBuilder config = new SchemaGeneratorConfigBuilder(this.objectMapper,
				SchemaVersion.DRAFT_2020_12, OptionPreset.PLAIN_JSON);
		config.with(Option.INLINE_ALL_SCHEMAS, Option.MAP_VALUES_AS_ADDITIONAL_PROPERTIES, Option.STANDARD_FORMATS);
		config.without(Option.SCHEMA_VERSION_INDICATOR, Option.VALUES_FROM_CONSTANT_FIELDS);
		config.with(new JakartaValidationModule(JakartaValidationOption.NOT_NULLABLE_FIELD_IS_REQUIRED,
				JakartaValidationOption.INCLUDE_PATTERN_EXPRESSIONS));
		config.forTypesInGeneral().withCustomDefinitionProvider((type, context) -> kubernetesType(type));
		config.forFields().withTargetTypeOverridesResolver((field) -> {
			checkSchemaExists(field);
			return null;
		});
		config.forFields().withCustomDefinitionProvider((field, context) -> preserveUnknownFields(field));
		config.forFields().withDefaultResolver(this::defaultValue);
		config.forFields().withInstanceAttributeOverride(this::fieldRules);
		config.forTypesInGeneral().withTypeAttributeOverride(this::typeRules);
		this.schemaGenerator = new SchemaGenerator(config.build());
	}

	/**
	 * Returns the CustomResourceDefinition of a typed custom resource class, the only
	 * version of its kind.
	 * @param resourceClass a class extending {@link CustomResource} and annotated with
	 * {@link KubernetesResource}
	 * @return the CustomResourceDefinition as a JSON tree
	 * @throws IllegalArgumentException if a field has no schema, the types form a cycle
	 * or a validation rule is invalid; the message names the class and the field
	 */
	public ObjectNode customResourceDefinition(Class<?> resourceClass) {
		return customResourceDefinition(List.of(resourceClass));
	}

	/**
	 * Returns the CustomResourceDefinition of the classes that declare the versions of
	 * one kind, one class per version: a schema per version, the storage version marked
	 * and, with several versions, a conversion webhook when one is configured.
	 * @param versionClasses the classes, all of one group and kind
	 * @return the CustomResourceDefinition as a JSON tree
	 * @throws IllegalArgumentException if the classes do not declare one kind, declare a
	 * version twice, or mark no or several storage versions (naming the classes), and for
	 * what {@link #customResourceDefinition(Class)} rejects
	 */
	public ObjectNode customResourceDefinition(List<Class<?>> versionClasses) {
		return customResourceDefinition(versionClasses, new LinkedHashMap<>());
	}

	/**
	 * Returns the CustomResourceDefinition of the version classes of one kind, and where
	 * each of its validation rules was declared.
	 * @param versionClasses the classes, all of one group and kind
	 * @param ruleOrigins filled with the field path of each rule in the definition, as
	 * the API server writes it ({@code spec.versions[0].schema.openAPIV3Schema
	 * .properties[spec].x-kubernetes-validations[0]}), and the rule with where it was
	 * declared ({@code field 'tags' of com.example.Spec})
	 * @return the CustomResourceDefinition as a JSON tree
	 */
	ObjectNode customResourceDefinition(List<Class<?>> versionClasses, Map<String, DeclaredRule> ruleOrigins) {
		Class<?> storageClass = storageVersion(versionClasses);
		ResourceType type = ResourceType.of(storageClass);
		KubernetesResource resource = storageClass.getAnnotation(KubernetesResource.class);
		ObjectNode crd = this.objectMapper.createObjectNode();
		crd.put("apiVersion", "apiextensions.k8s.io/v1");
		crd.put("kind", "CustomResourceDefinition");
		ObjectNode metadata = crd.putObject("metadata");
		metadata.put("name", type.crdName());
		ObjectNode spec = crd.putObject("spec");
		spec.put("group", type.group());
		ObjectNode names = spec.putObject("names");
		names.put("kind", type.kind());
		names.put("listKind", type.kind() + "List");
		names.put("plural", type.plural());
		names.put("singular", type.singular());
		strings(names, "shortNames", List.of(resource.shortNames()));
		strings(names, "categories", List.of(resource.categories()));
		spec.put("scope", type.namespaced() ? "Namespaced" : "Cluster");
		ArrayNode versions = spec.putArray("versions");
		List<Class<?>> ordered = new ArrayList<>(versionClasses);
		ordered.sort(Comparator.comparing((Class<?> versionClass) -> ResourceType.of(versionClass).version(),
				CrdGenerator::compareVersionPriority));
		for (Class<?> versionClass : ordered) {
			String versionPath = "spec.versions[" + versions.size() + "].schema.openAPIV3Schema";
			versions.add(version(versionClass, versionClass == storageClass, versionPath, ruleOrigins));
		}
		conversion(crd, type, versionClasses.size());
		return crd;
	}

	private ObjectNode version(Class<?> resourceClass, boolean storage, String schemaPath,
			Map<String, DeclaredRule> ruleOrigins) {
		ResourceType type = ResourceType.of(resourceClass);
		KubernetesResource resource = resourceClass.getAnnotation(KubernetesResource.class);
		Type[] arguments = customResourceArguments(resourceClass);
		ObjectNode version = this.objectMapper.createObjectNode();
		version.put("name", type.version());
		version.put("served", resource.served());
		version.put("storage", storage);
		if (resource.deprecated()) {
			version.put("deprecated", true);
		}
		ObjectNode root = version.putObject("schema").putObject("openAPIV3Schema");
		root.put("type", "object");
		ObjectNode properties = root.putObject("properties");
		properties.putObject("apiVersion").put("type", "string");
		properties.putObject("kind").put("type", "string");
		properties.putObject("metadata").put("type", "object");
		properties.set("spec", schema(resourceClass, "spec", arguments[0]));
		boolean hasStatus = arguments[1] != Void.class;
		if (hasStatus) {
			properties.set("status", schema(resourceClass, "status", arguments[1]));
		}
		ValidationRule[] rootRules = resourceClass.getAnnotationsByType(ValidationRule.class);
		if (rootRules.length > 0) {
			ArrayNode validations = root.putArray("x-kubernetes-validations");
			for (ValidationRule rule : rootRules) {
				validations.add(ValidationRuleChecker.write(rule, "class " + resourceClass.getName()));
			}
		}
		collectRuleOrigins(root, schemaPath, ruleOrigins);
		ValidationRuleChecker.check(resourceClass, root, this.compileRules);
		ObjectNode subresources = this.objectMapper.createObjectNode();
		if (hasStatus) {
			subresources.putObject("status");
		}
		for (KubernetesResource.Scale scale : resource.scale()) {
			ObjectNode node = subresources.putObject("scale");
			node.put("specReplicasPath", scale.specReplicasPath());
			node.put("statusReplicasPath", scale.statusReplicasPath());
			if (!scale.labelSelectorPath().isEmpty()) {
				node.put("labelSelectorPath", scale.labelSelectorPath());
			}
		}
		if (!subresources.isEmpty()) {
			version.set("subresources", subresources);
		}
		if (resource.printerColumns().length > 0) {
			ArrayNode columns = version.putArray("additionalPrinterColumns");
			for (KubernetesResource.PrinterColumn column : resource.printerColumns()) {
				ObjectNode node = columns.addObject();
				node.put("name", column.name());
				node.put("type", column.type());
				node.put("jsonPath", column.jsonPath());
				if (!column.description().isEmpty()) {
					node.put("description", column.description());
				}
				if (column.priority() != 0) {
					node.put("priority", column.priority());
				}
			}
		}
		return version;
	}

	// the paths as the API server's validation errors name them, before the checker
	// removes the origins from the rules
	private static void collectRuleOrigins(ObjectNode schema, String path, Map<String, DeclaredRule> ruleOrigins) {
		if (schema.get("x-kubernetes-validations") instanceof ArrayNode rules) {
			for (int i = 0; i < rules.size(); i++) {
				JsonNode origin = rules.get(i).get(ValidationRuleChecker.ORIGIN);
				if (origin != null) {
					ruleOrigins.put(path + ".x-kubernetes-validations[" + i + "]",
							new DeclaredRule(rules.get(i).path("rule").asText(), origin.asText()));
				}
			}
		}
		if (schema.get("properties") instanceof ObjectNode properties) {
			for (Map.Entry<String, JsonNode> property : properties.properties()) {
				if (property.getValue() instanceof ObjectNode child) {
					collectRuleOrigins(child, path + ".properties[" + property.getKey() + "]", ruleOrigins);
				}
			}
		}
		for (String single : List.of("items", "additionalProperties")) {
			if (schema.get(single) instanceof ObjectNode child) {
				collectRuleOrigins(child, path + "." + single, ruleOrigins);
			}
		}
		for (String combination : List.of("allOf", "anyOf", "oneOf")) {
			if (schema.get(combination) instanceof ArrayNode parts) {
				for (int i = 0; i < parts.size(); i++) {
					if (parts.get(i) instanceof ObjectNode child) {
						collectRuleOrigins(child, path + "." + combination + "[" + i + "]", ruleOrigins);
					}
				}
			}
		}
	}

	// with one version the API server has nothing to convert; with several, it calls the
	// operator's conversion webhook when one is configured and otherwise only rewrites
	// apiVersion (strategy None), which is right only while the schemas agree
	private void conversion(ObjectNode crd, ResourceType type, int versionCount) {
		ObjectNode conversion = ((ObjectNode) crd.get("spec")).putObject("conversion");
		if (versionCount < 2 || this.conversionWebhook == null) {
			conversion.put("strategy", "None");
			return;
		}
		conversion.put("strategy", "Webhook");
		ObjectNode webhook = conversion.putObject("webhook");
		webhook.putArray("conversionReviewVersions").add("v1");
		ObjectNode service = webhook.putObject("clientConfig").putObject("service");
		service.put("name", this.conversionWebhook.serviceName());
		service.put("namespace", this.conversionWebhook.serviceNamespace());
		service.put("path", this.conversionWebhook.path(type));
		service.put("port", this.conversionWebhook.servicePort());
		String certificate = this.conversionWebhook.certManagerCertificate();
		if (certificate != null) {
			((ObjectNode) crd.get("metadata")).putObject("annotations")
				.put(ConversionWebhook.CERT_MANAGER_INJECT_CA_FROM, certificate);
		}
	}

	/**
	 * Returns the classes of each CustomResourceDefinition, by CRD name: the classes that
	 * declare versions of one kind share one.
	 * @param resourceClasses the resource classes
	 * @return the classes by CRD name, in the order met
	 */
	public static Map<String, List<Class<?>>> byDefinition(Collection<Class<?>> resourceClasses) {
		Map<String, List<Class<?>>> definitions = new LinkedHashMap<>();
		for (Class<?> resourceClass : resourceClasses) {
			definitions.computeIfAbsent(ResourceType.of(resourceClass).crdName(), (name) -> new ArrayList<>())
				.add(resourceClass);
		}
		return definitions;
	}

	// exactly one storage version, and versions that agree on what the CRD has once
	private static Class<?> storageVersion(List<Class<?>> versionClasses) {
		if (versionClasses.isEmpty()) {
			throw new IllegalArgumentException("A CustomResourceDefinition needs at least one version class");
		}
		if (versionClasses.size() == 1) {
			return versionClasses.get(0);
		}
		ResourceType first = ResourceType.of(versionClasses.get(0));
		Map<String, Class<?>> byVersion = new LinkedHashMap<>();
		for (Class<?> versionClass : versionClasses) {
			ResourceType type = ResourceType.of(versionClass);
			if (!type.kind().equals(first.kind()) || type.namespaced() != first.namespaced()
					|| !type.singular().equals(first.singular())) {
				throw new IllegalArgumentException("The versions of " + first.crdName() + " disagree on kind, "
						+ "singular name or scope: " + names(versionClasses)
						+ "; each version class must declare the same kind, names and scope");
			}
			Class<?> previous = byVersion.put(type.version(), versionClass);
			if (previous != null) {
				throw new IllegalArgumentException("Version " + type.version() + " of " + first.crdName()
						+ " is declared twice, by " + previous.getName() + " and " + versionClass.getName());
			}
		}
		List<Class<?>> storage = versionClasses.stream()
			.filter((versionClass) -> versionClass.getAnnotation(KubernetesResource.class).storage())
			.toList();
		if (storage.size() != 1) {
			throw new IllegalArgumentException(first.crdName() + " has versions "
					+ String.join(", ", byVersion.keySet()) + " in " + names(versionClasses) + ", and "
					+ (storage.isEmpty() ? "none" : names(storage))
					+ " marked as the storage version: mark exactly one with @KubernetesResource(storage = true)");
		}
		return storage.get(0);
	}

	private static String names(List<Class<?>> classes) {
		return String.join(", ", classes.stream().map(Class::getName).toList());
	}

	/**
	 * Compares two versions by Kubernetes' version priority, highest first: GA before
	 * beta before alpha, higher numbers first, other names last in alphabetical order
	 * ({@code v2}, {@code v1}, {@code v1beta1}, {@code v1alpha1}, {@code foo}).
	 * @param left a version
	 * @param right another version
	 * @return the comparison
	 */
	static int compareVersionPriority(String left, String right) {
		Matcher leftMatch = KUBE_VERSION.matcher(left);
		Matcher rightMatch = KUBE_VERSION.matcher(right);
		boolean leftKube = leftMatch.matches();
		boolean rightKube = rightMatch.matches();
		if (!leftKube || !rightKube) {
			return (leftKube == rightKube) ? left.compareTo(right) : (leftKube ? -1 : 1);
		}
		int stability = Integer.compare(stability(rightMatch.group(2)), stability(leftMatch.group(2)));
		if (stability != 0) {
			return stability;
		}
		int major = Integer.compare(Integer.parseInt(rightMatch.group(1)), Integer.parseInt(leftMatch.group(1)));
		if (major != 0) {
			return major;
		}
		return Integer.compare(minor(rightMatch.group(3)), minor(leftMatch.group(3)));
	}

	private static int stability(String level) {
		return (level == null) ? 2 : level.equals("beta") ? 1 : 0;
	}

	private static int minor(String number) {
		return (number == null) ? 0 : Integer.parseInt(number);
	}

	/**
	 * Returns the CustomResourceDefinition of a typed custom resource class as YAML.
	 * @param resourceClass the class
	 * @return the YAML document
	 */
	public String yaml(Class<?> resourceClass) {
		return yaml(List.of(resourceClass));
	}

	/**
	 * Returns the CustomResourceDefinition of the version classes of one kind as YAML.
	 * @param versionClasses the classes
	 * @return the YAML document
	 */
	public String yaml(List<Class<?>> versionClasses) {
		DumperOptions options = new DumperOptions();
		options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
		// through JSON text, so that victools' BigDecimal bounds become plain YAML
		// numbers rather than the Java-specific !!float '1' that Go YAML decoders do not
		// read
		Yaml yaml = new Yaml(options);
		return yaml.dump(yaml.load(customResourceDefinition(versionClasses).toString()));
	}

	/**
	 * Writes the CustomResourceDefinition of each kind to
	 * {@code <directory>/<plural>.<group>.yaml}; the classes that declare versions of one
	 * kind share one.
	 * @param resourceClasses the classes
	 * @param directory the directory, created if missing
	 * @return the files written
	 * @throws IOException if a file cannot be written
	 */
	public List<Path> write(Collection<Class<?>> resourceClasses, Path directory) throws IOException {
		Files.createDirectories(directory);
		List<Path> files = new ArrayList<>();
		for (Map.Entry<String, List<Class<?>>> definition : byDefinition(resourceClasses).entrySet()) {
			Path file = directory.resolve(definition.getKey() + ".yaml");
			Files.writeString(file, yaml(definition.getValue()));
			files.add(file);
		}
		return files;
	}

	/**
	 * Returns the structural schema of a spec or status type.
	 * @param resourceClass the resource class, for messages
	 * @param path the field path of the type, for messages
	 * @param type the type
	 * @return the schema
	 */
	ObjectNode schema(Class<?> resourceClass, String path, Type type) {
		try {
			return mergeValidations(this.schemaGenerator.generateSchema(type));
		}
		catch (SchemaException ex) {
			throw new IllegalArgumentException("Cannot generate the schema of " + resourceClass.getName() + " at '"
					+ path + "': " + ex.getMessage(), ex);
		}
		catch (IllegalArgumentException ex) {
			// victools refuses a type that contains itself when every schema is inlined
			throw new IllegalArgumentException("Cannot generate the schema of " + resourceClass.getName() + " at '"
					+ path + "': its types form a cycle, which a structural schema cannot express (" + ex.getMessage()
					+ ")", ex);
		}
	}

	// victools writes the rules of a field and those of the field's class as an allOf of
	// two schemas, which a structural schema cannot have: one schema with both rules
	private static ObjectNode mergeValidations(ObjectNode schema) {
		if (schema.get("allOf") instanceof ArrayNode parts) {
			ObjectNode merged = JsonNodeFactory.instance.objectNode();
			ArrayNode validations = JsonNodeFactory.instance.arrayNode();
			boolean mergeable = true;
			for (JsonNode part : parts) {
				for (Map.Entry<String, JsonNode> entry : part.properties()) {
					if (entry.getKey().equals("x-kubernetes-validations")) {
						validations.addAll((ArrayNode) entry.getValue());
					}
					else if (merged.has(entry.getKey()) && !merged.get(entry.getKey()).equals(entry.getValue())) {
						mergeable = false;
					}
					else {
						merged.set(entry.getKey(), entry.getValue());
					}
				}
			}
			if (mergeable) {
				schema.remove("allOf");
				schema.setAll(merged);
				if (!validations.isEmpty()) {
					schema.set("x-kubernetes-validations", validations);
				}
			}
		}
		for (JsonNode child : schema) {
			if (child instanceof ObjectNode object) {
				mergeValidations(object);
			}
			else if (child instanceof ArrayNode array) {
				for (JsonNode item : array) {
					if (item instanceof ObjectNode object) {
						mergeValidations(object);
					}
				}
			}
		}
		return schema;
	}

	private static Type[] customResourceArguments(Class<?> resourceClass) {
		Type type = resourceClass.getGenericSuperclass();
		while (type != null) {
			if (type instanceof ParameterizedType parameterized && parameterized.getRawType() == CustomResource.class) {
				return parameterized.getActualTypeArguments();
			}
			Class<?> raw = (Class<?>) ((type instanceof ParameterizedType parameterized) ? parameterized.getRawType()
					: type);
			type = raw.getGenericSuperclass();
		}
		throw new IllegalArgumentException(resourceClass.getName() + " does not extend "
				+ CustomResource.class.getSimpleName() + "<Spec, Status> with concrete spec and status types");
	}

	private CustomDefinition kubernetesType(ResolvedType type) {
		Class<?> erased = type.getErasedType();
		if (erased == IntOrString.class) {
			return inline(intOrString());
		}
		if (erased == Quantity.class) {
			return inline(intOrString().put("pattern", QUANTITY_PATTERN));
		}
		if (erased == OffsetDateTime.class || erased == ZonedDateTime.class || erased == Instant.class) {
			return inline(this.objectMapper.createObjectNode().put("type", "string").put("format", "date-time"));
		}
		if (List.class.isAssignableFrom(erased) && type.getTypeParameters().size() == 1
				&& type.getTypeParameters().get(0).getErasedType() == V1Condition.class) {
			return inline(conditions());
		}
		return null;
	}

	private CustomDefinition inline(ObjectNode node) {
		return new CustomDefinition(node, CustomDefinition.DefinitionType.INLINE,
				CustomDefinition.AttributeInclusion.YES);
	}

	private ObjectNode intOrString() {
		ObjectNode node = this.objectMapper.createObjectNode();
		ArrayNode anyOf = node.putArray("anyOf");
		anyOf.addObject().put("type", "integer");
		anyOf.addObject().put("type", "string");
		node.put("x-kubernetes-int-or-string", true);
		return node;
	}

	// the schema of metav1.Condition as the API server's own types declare it
	private ObjectNode conditions() {
		ObjectNode list = this.objectMapper.createObjectNode();
		list.put("type", "array");
		list.put("x-kubernetes-list-type", "map");
		list.putArray("x-kubernetes-list-map-keys").add("type");
		ObjectNode item = list.putObject("items");
		item.put("type", "object");
		ObjectNode properties = item.putObject("properties");
		properties.putObject("type").put("type", "string").put("maxLength", 316);
		properties.putObject("status").put("type", "string").putArray("enum").add("True").add("False").add("Unknown");
		properties.putObject("lastTransitionTime").put("type", "string").put("format", "date-time");
		properties.putObject("reason").put("type", "string").put("maxLength", 1024).put("minLength", 1);
		properties.putObject("message").put("type", "string").put("maxLength", 32768);
		properties.putObject("observedGeneration").put("type", "integer").put("format", "int64").put("minimum", 0);
		item.putArray("required").add("type").add("status").add("lastTransitionTime").add("reason").add("message");
		return list;
	}

	private CustomPropertyDefinition preserveUnknownFields(FieldScope field) {
		if (field.getAnnotation(PreserveUnknownFields.class) == null) {
			return null;
		}
		ObjectNode node = this.objectMapper.createObjectNode()
			.put("type", "object")
			.put("x-kubernetes-preserve-unknown-fields", true);
		return new CustomPropertyDefinition(node, CustomDefinition.AttributeInclusion.YES);
	}

	private void fieldRules(ObjectNode attributes, FieldScope field, SchemaGenerationContext context) {
		// a list field's rules are about the list, not about each item
		if (field.isFakeContainerItemScope()) {
			return;
		}
		ValidationRule[] rules = field.getRawMember().getAnnotationsByType(ValidationRule.class);
		addRules(attributes, rules,
				"field '" + field.getName() + "' of " + field.getDeclaringType().getErasedType().getName());
	}

	private void typeRules(ObjectNode attributes, TypeScope scope, SchemaGenerationContext context) {
		Class<?> type = scope.getType().getErasedType();
		addRules(attributes, type.getAnnotationsByType(ValidationRule.class), "class " + type.getName());
	}

	private static void addRules(ObjectNode attributes, ValidationRule[] rules, String origin) {
		if (rules.length == 0) {
			return;
		}
		ArrayNode validations = (attributes.get("x-kubernetes-validations") instanceof ArrayNode existing) ? existing
				: attributes.putArray("x-kubernetes-validations");
		for (ValidationRule rule : rules) {
			ObjectNode entry = ValidationRuleChecker.write(rule, origin);
			// victools may visit a type twice for one node
			boolean present = false;
			for (JsonNode existing : validations) {
				present = present || existing.equals(entry);
			}
			if (!present) {
				validations.add(entry);
			}
		}
	}

	private Object defaultValue(FieldScope field) {
		Default annotation = field.getAnnotation(Default.class);
		if (annotation == null) {
			return null;
		}
		try {
			// a plain value: victools writes a JSON node as a POJO
			return this.objectMapper.readValue(annotation.value(), Object.class);
		}
		catch (JsonProcessingException ex) {
			return annotation.value();
		}
	}

	// a field whose type has no schema fails here, before victools walks into it, so that
	// the message can name the field
	private void checkSchemaExists(FieldScope field) {
		if (field.getAnnotation(PreserveUnknownFields.class) != null) {
			return;
		}
		checkSchemaExists(field, field.getType());
	}

	private void checkSchemaExists(FieldScope field, ResolvedType type) {
		Class<?> erased = type.getErasedType();
		if (erased.isPrimitive() || erased.isEnum() || JDK_VALUE_TYPES.contains(erased) || erased == IntOrString.class
				|| erased == Quantity.class || erased == V1Condition.class) {
			return;
		}
		if (erased.isArray()) {
			checkSchemaExists(field, type.getArrayElementType());
			return;
		}
		if (Collection.class.isAssignableFrom(erased) || Map.class.isAssignableFrom(erased)) {
			if (Map.class.isAssignableFrom(erased) && type.getTypeParameters().size() == 2
					&& type.getTypeParameters().get(0).getErasedType() != String.class) {
				throw noSchema(field, type, "map keys must be strings in JSON");
			}
			if (type.getTypeParameters().isEmpty()) {
				throw noSchema(field, type, "a raw collection says nothing of its elements");
			}
			for (ResolvedType parameter : type.getTypeParameters()) {
				if (!(Map.class.isAssignableFrom(erased) && parameter == type.getTypeParameters().get(0))) {
					checkSchemaExists(field, parameter);
				}
			}
			return;
		}
		if (erased == Object.class || erased.isInterface()) {
			throw noSchema(field, type, "it could hold anything; use a concrete class, or mark the field @"
					+ PreserveUnknownFields.class.getSimpleName() + " for free-form content");
		}
		String name = erased.getName();
		if (name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
				|| name.startsWith("sun.")) {
			throw noSchema(field, type, "a JDK class that is not a value has no JSON form");
		}
	}

	private static SchemaException noSchema(FieldScope field, ResolvedType type, String why) {
		return new SchemaException(
				"field '" + field.getName() + "' of " + field.getDeclaringType().getErasedType().getName()
						+ " has type " + type.getBriefDescription() + ", which has no schema: " + why);
	}

	private static void strings(ObjectNode node, String name, List<String> values) {
		if (!values.isEmpty()) {
			ArrayNode array = node.putArray(name);
			values.forEach(array::add);
		}
	}

	/**
	 * A field type without a schema.
	 */
	/**
	 * A validation rule and where it was declared.
	 *
	 * @param rule the CEL expression
	 * @param origin where it was declared, such as
	 * {@code field 'tags' of com.example.Spec}
	 */
	record DeclaredRule(String rule, String origin) {
	}

	static final class SchemaException extends RuntimeException {

		SchemaException(String message) {
			super(message);
		}

	}

}
