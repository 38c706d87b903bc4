package dev.caldera.kube;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The OpenAPI v2 document that {@code kubectl}'s client-side validation reads from {@code
 * /openapi/v2}, holding the schemas of custom resource definitions and nothing else.
 *
 * <p>kubectl accepts this document only in its protobuf encoding (the {@code openapi.v2} messages
 * of Google's gnostic, which kubectl links). Only the fields a schema needs are described here; the
 * field numbers are the wire format's. kubectl finds a kind's schema by the definition's {@code
 * x-kubernetes-group-version-kind} extension and skips validation of a kind it finds none for.
 *
 * <p>Each served version's {@code openAPIV3Schema} is turned into v2 the way the API server does
 * for its own {@code /openapi/v2}: {@code allOf}, {@code anyOf}, {@code oneOf} and {@code not} are
 * dropped, a nullable value loses its type, and a node with {@code
 * x-kubernetes-preserve-unknown-fields} loses its properties and items (else kubectl would reject
 * the unknown fields the node keeps). So kubectl checks exactly what it checks against a real
 * server: no unknown field outside such a node, the types of the fields that remain. Unlike a real
 * server, {@code metadata} is what the CRD says (an object), not a reference to {@code ObjectMeta}.
 */
final class CrdOpenApiV2 {

  private static final String PACKAGE = "openapi.v2";
  private static final FileDescriptor MESSAGES = messages();

  private CrdOpenApiV2() {}

  /** The encoded document with a definition per served version of each CRD. */
  static byte[] document(List<CustomResourceDefinition> crds) {
    DynamicMessage.Builder definitions = builder("Definitions");
    for (CustomResourceDefinition crd : crds) {
      for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
        if (Boolean.TRUE.equals(version.getServed()) && version.getSchema() != null) {
          add(definitions, "additional_properties", definition(crd, version));
        }
      }
    }
    DynamicMessage.Builder document = builder("Document");
    set(document, "swagger", "2.0");
    set(
        document,
        "info",
        set(set(builder("Info"), "title", "CRD schemas"), "version", "v2").build());
    set(document, "definitions", definitions.build());
    return document.build().toByteArray();
  }

  private static DynamicMessage definition(
      CustomResourceDefinition crd, CustomResourceDefinitionVersion version) {
    String group = crd.getSpec().getGroup();
    String kind = crd.getSpec().getNames().getKind();
    DynamicMessage.Builder schema = schema(version.getSchema().getOpenAPIV3Schema());
    Map<String, String> gvk = Map.of("group", group, "version", version.getName(), "kind", kind);
    DynamicMessage.Builder yaml =
        set(builder("Any"), "yaml", DeployManifests.SERIALIZATION.asYaml(List.of(gvk)));
    add(
        schema,
        "vendor_extension",
        set(set(builder("NamedAny"), "name", "x-kubernetes-group-version-kind"), "value", yaml)
            .build());
    return named(reversed(group) + "." + version.getName() + "." + kind, schema.build());
  }

  private static DynamicMessage.Builder schema(JSONSchemaProps v3) {
    DynamicMessage.Builder v2 = builder("Schema");
    boolean nullable = Boolean.TRUE.equals(v3.getNullable());
    boolean keepsChildren =
        !nullable && !Boolean.TRUE.equals(v3.getXKubernetesPreserveUnknownFields());
    boolean hasItems = keepsChildren && v3.getItems() != null && v3.getItems().getSchema() != null;
    // kubectl cannot read an array without an item schema; the API server leaves it untyped.
    if (v3.getType() != null && !nullable && (hasItems || !v3.getType().equals("array"))) {
      set(v2, "type", add(builder("TypeItem"), "value", v3.getType()).build());
    }
    if (v3.getFormat() != null) {
      set(v2, "format", v3.getFormat());
    }
    if (v3.getDescription() != null) {
      set(v2, "description", v3.getDescription());
    }
    for (String required : v3.getRequired()) {
      JSONSchemaProps property = v3.getProperties().get(required);
      if (property == null || !Boolean.TRUE.equals(property.getNullable())) {
        add(v2, "required", required);
      }
    }
    if (keepsChildren && !v3.getProperties().isEmpty()) {
      DynamicMessage.Builder properties = builder("Properties");
      v3.getProperties()
          .forEach(
              (name, property) ->
                  add(properties, "additional_properties", named(name, schema(property).build())));
      set(v2, "properties", properties.build());
    }
    if (hasItems) {
      set(v2, "items", add(builder("ItemsItem"), "schema", schema(v3.getItems().getSchema())));
    }
    if (v3.getAdditionalProperties() != null) {
      DynamicMessage.Builder additional = builder("AdditionalPropertiesItem");
      if (v3.getAdditionalProperties().getSchema() != null) {
        set(additional, "schema", schema(v3.getAdditionalProperties().getSchema()).build());
      } else {
        set(additional, "boolean", Boolean.TRUE.equals(v3.getAdditionalProperties().getAllows()));
      }
      set(v2, "additional_properties", additional.build());
    }
    return v2;
  }

  private static String reversed(String group) {
    List<String> labels = Arrays.asList(group.split("\\."));
    Collections.reverse(labels);
    return String.join(".", labels);
  }

  private static DynamicMessage named(String name, DynamicMessage schema) {
    return set(set(builder("NamedSchema"), "name", name), "value", schema).build();
  }

  private static DynamicMessage.Builder builder(String message) {
    return DynamicMessage.newBuilder(MESSAGES.findMessageTypeByName(message));
  }

  private static DynamicMessage.Builder set(DynamicMessage.Builder b, String field, Object value) {
    Object v = value instanceof DynamicMessage.Builder nested ? nested.build() : value;
    return b.setField(b.getDescriptorForType().findFieldByName(field), v);
  }

  private static DynamicMessage.Builder add(DynamicMessage.Builder b, String field, Object value) {
    Object v = value instanceof DynamicMessage.Builder nested ? nested.build() : value;
    return b.addRepeatedField(b.getDescriptorForType().findFieldByName(field), v);
  }

  /** The subset of gnostic's {@code openapi.v2} messages that a document of schemas uses. */
  private static FileDescriptor messages() {
    FileDescriptorProto file =
        FileDescriptorProto.newBuilder()
            .setName("openapi_v2_schemas.proto")
            .setPackage(PACKAGE)
            .setSyntax("proto3")
            .addMessageType(
                messageType(
                    "Document",
                    stringField("swagger", 1),
                    messageField("info", 2, "Info"),
                    messageField("definitions", 9, "Definitions")))
            .addMessageType(messageType("Info", stringField("title", 1), stringField("version", 2)))
            .addMessageType(
                messageType(
                    "Definitions",
                    repeated(messageField("additional_properties", 1, "NamedSchema"))))
            .addMessageType(
                messageType(
                    "NamedSchema", stringField("name", 1), messageField("value", 2, "Schema")))
            .addMessageType(
                messageType(
                    "Schema",
                    stringField("format", 2),
                    stringField("description", 4),
                    repeated(stringField("required", 19)),
                    messageField("additional_properties", 21, "AdditionalPropertiesItem"),
                    messageField("type", 22, "TypeItem"),
                    messageField("items", 23, "ItemsItem"),
                    messageField("properties", 25, "Properties"),
                    repeated(messageField("vendor_extension", 31, "NamedAny"))))
            .addMessageType(
                messageType(
                    "AdditionalPropertiesItem",
                    messageField("schema", 1, "Schema"),
                    field("boolean", 2, FieldDescriptorProto.Type.TYPE_BOOL)))
            .addMessageType(messageType("TypeItem", repeated(stringField("value", 1))))
            .addMessageType(messageType("ItemsItem", repeated(messageField("schema", 1, "Schema"))))
            .addMessageType(
                messageType(
                    "Properties",
                    repeated(messageField("additional_properties", 1, "NamedSchema"))))
            .addMessageType(
                messageType("NamedAny", stringField("name", 1), messageField("value", 2, "Any")))
            .addMessageType(messageType("Any", stringField("yaml", 2)))
            .build();
    try {
      return FileDescriptor.buildFrom(file, new FileDescriptor[0]);
    } catch (DescriptorValidationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static DescriptorProto messageType(String name, FieldDescriptorProto.Builder... fields) {
    DescriptorProto.Builder message = DescriptorProto.newBuilder().setName(name);
    for (FieldDescriptorProto.Builder f : fields) {
      message.addField(f);
    }
    return message.build();
  }

  private static FieldDescriptorProto.Builder field(
      String name, int number, FieldDescriptorProto.Type type) {
    return FieldDescriptorProto.newBuilder()
        .setName(name)
        .setNumber(number)
        .setType(type)
        .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL);
  }

  private static FieldDescriptorProto.Builder stringField(String name, int number) {
    return field(name, number, FieldDescriptorProto.Type.TYPE_STRING);
  }

  private static FieldDescriptorProto.Builder messageField(String name, int number, String type) {
    return field(name, number, FieldDescriptorProto.Type.TYPE_MESSAGE)
        .setTypeName("." + PACKAGE + "." + type);
  }

  private static FieldDescriptorProto.Builder repeated(FieldDescriptorProto.Builder field) {
    return field.setLabel(FieldDescriptorProto.Label.LABEL_REPEATED);
  }
}
