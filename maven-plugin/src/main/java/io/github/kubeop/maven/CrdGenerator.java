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
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.classmate.ResolvedType;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.CustomPropertyDefinition;
import com.github.victools.jsonschema.generator.FieldScope;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.module.jakarta.validation.JakartaValidationModule;
import com.github.victools.jsonschema.module.jakarta.validation.JakartaValidationOption;
import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.Default;
import io.github.kubeop.resource.KubernetesResource;
import io.github.kubeop.resource.PreserveUnknownFields;
import io.github.kubeop.resource.ResourceType;
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
 * API server accepts no {@code $ref}.
 *
 * @author Kubeop authors
 */
public final class CrdGenerator {

	// the pattern controller-gen writes for resource.Quantity
	static final String QUANTITY_PATTERN = "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

	private static final Set<Class<?>> JDK_VALUE_TYPES = Set.of(String.class, Boolean.class, Byte.class, Short.class,
			Integer.class, Long.class, Float.class, Double.class, Character.class, BigDecimal.class, BigInteger.class,
			OffsetDateTime.class, ZonedDateTime.class, Instant.class, LocalDate.class);

	private final ObjectMapper objectMapper = new ObjectMapper();

	private final SchemaGenerator schemaGenerator;

	/**
	 * Creates a generator.
	 */
	public CrdGenerator() {
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
		this.schemaGenerator = new SchemaGenerator(config.build());
	}

	/**
	 * Returns the CustomResourceDefinition of a typed custom resource class.
	 * @param resourceClass a class extending {@link CustomResource} and annotated with
	 * {@link KubernetesResource}
	 * @return the CustomResourceDefinition as a JSON tree
	 * @throws IllegalArgumentException if a field has no schema or the types form a
	 * cycle; the message names the class and the field
	 */
	public ObjectNode customResourceDefinition(Class<?> resourceClass) {
		ResourceType type = ResourceType.of(resourceClass);
		KubernetesResource resource = resourceClass.getAnnotation(KubernetesResource.class);
		Type[] arguments = customResourceArguments(resourceClass);
		ObjectNode crd = this.objectMapper.createObjectNode();
		crd.put("apiVersion", "apiextensions.k8s.io/v1");
		crd.put("kind", "CustomResourceDefinition");
		crd.putObject("metadata").put("name", type.crdName());
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
		ObjectNode version = spec.putArray("versions").addObject();
		version.put("name", type.version());
		version.put("served", true);
		version.put("storage", true);
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
		return crd;
	}

	/**
	 * Returns the CustomResourceDefinition of a typed custom resource class as YAML.
	 * @param resourceClass the class
	 * @return the YAML document
	 */
	public String yaml(Class<?> resourceClass) {
		DumperOptions options = new DumperOptions();
		options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
		// through JSON text, so that victools' BigDecimal bounds become plain YAML
		// numbers
		// rather than the Java-specific !!float '1' that Go YAML decoders do not read
		Yaml yaml = new Yaml(options);
		return yaml.dump(yaml.load(customResourceDefinition(resourceClass).toString()));
	}

	/**
	 * Writes the CustomResourceDefinition of each class to
	 * {@code <directory>/<plural>.<group>.yaml}.
	 * @param resourceClasses the classes
	 * @param directory the directory, created if missing
	 * @return the files written
	 * @throws IOException if a file cannot be written
	 */
	public List<Path> write(Collection<Class<?>> resourceClasses, Path directory) throws IOException {
		Files.createDirectories(directory);
		List<Path> files = new ArrayList<>();
		for (Class<?> resourceClass : resourceClasses) {
			Path file = directory.resolve(ResourceType.of(resourceClass).crdName() + ".yaml");
			Files.writeString(file, yaml(resourceClass));
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
			return this.schemaGenerator.generateSchema(type);
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
	static final class SchemaException extends RuntimeException {

		SchemaException(String message) {
			super(message);
		}

	}

}
