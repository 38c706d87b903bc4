package dev.caldera.kube.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserSequence;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.internal.KubernetesDeserializer;
import java.io.IOException;

/**
 * Reads the object of a watch event without the JSON tree fabric8 builds first. fabric8's {@link
 * KubernetesDeserializer} reads every object into a tree to find its {@code kind} and {@code
 * apiVersion}, then binds the tree to the class registered for them: under a steady stream of pods
 * about a fifth of the informers' CPU. The API server writes {@code kind} and {@code apiVersion}
 * first (Go's {@code TypeMeta} leads every built-in object; a custom resource is written with its
 * keys sorted, so {@code apiVersion} and {@code kind} lead it too), so this reads just those two
 * fields, finds the class the same way and binds the object straight from the stream, the two
 * fields replayed in front. An object that does not start so, or whose kind is not registered, goes
 * to fabric8's deserializer with the fields read so far replayed: the result is what fabric8 gives
 * in every case.
 *
 * <p>Installed as a mix-in on {@link io.fabric8.kubernetes.api.model.WatchEvent}'s {@code
 * setObject} (see {@link Clients#mapper()}).
 */
final class WatchObjects extends JsonDeserializer<Object> implements ContextualDeserializer {

  /** The mix-in for {@code WatchEvent}: its object is read by {@link WatchObjects}. */
  abstract static class WatchEventMixIn {
    // On the setter: Jackson takes a property's deserializer from the setter's annotations before
    // the field's, where fabric8 names its own.
    @JsonDeserialize(using = WatchObjects.class)
    abstract void setObject(Object object);
  }

  private static final String KIND = "kind";
  private static final String API_VERSION = "apiVersion";

  /** fabric8's deserializer of this mapper: its registered kinds, and the fallback. */
  private final KubernetesDeserializer fabric8;

  /** Jackson's instance, before {@link #createContextual}; it finds fabric8's there. */
  WatchObjects() {
    this(null);
  }

  private WatchObjects(KubernetesDeserializer fabric8) {
    this.fabric8 = fabric8;
  }

  @Override
  public JsonDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property)
      throws JsonMappingException {
    // fabric8's handler instantiator hands out the mapper's own deserializer, with the kinds
    // registered on the serialization (Clients#serialization, Informers).
    Object own =
        ctxt.deserializerInstance(
            property == null ? null : property.getMember(), KubernetesDeserializer.class);
    if (!(own instanceof KubernetesDeserializer kubernetes)) {
      throw JsonMappingException.from(
          ctxt, "no fabric8 KubernetesDeserializer for a watch event's object");
    }
    return new WatchObjects(kubernetes);
  }

  @Override
  public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
    if (fabric8 == null) {
      throw JsonMappingException.from(p, "WatchObjects used without its context");
    }
    if (!p.isExpectedStartObjectToken()) {
      return fabric8.deserialize(p, ctxt);
    }
    TokenBuffer lead = ctxt.bufferForInputBuffering(p);
    lead.writeStartObject();
    String kind = null;
    String apiVersion = null;
    JsonToken next = p.nextToken();
    while (next == JsonToken.FIELD_NAME && (kind == null || apiVersion == null)) {
      String name = p.currentName();
      boolean isKind = KIND.equals(name);
      if (!isKind && !API_VERSION.equals(name)) {
        break;
      }
      JsonToken value = p.nextToken();
      lead.writeFieldName(name);
      lead.copyCurrentStructure(p);
      if (value == JsonToken.VALUE_STRING) {
        if (isKind) {
          kind = p.getText();
        } else {
          apiVersion = p.getText();
        }
      }
      next = p.nextToken();
    }
    // The rest of the object: p's current token (the next field, or the end) and what follows.
    JsonParser whole = JsonParserSequence.createFlattened(true, lead.asParser(p.getCodec()), p);
    whole.nextToken();
    Class<? extends KubernetesResource> type =
        kind == null || apiVersion == null ? null : fabric8.getRegisteredKind(apiVersion, kind);
    if (type == null) {
      return fabric8.deserialize(whole, ctxt);
    }
    return ctxt.readValue(whole, type);
  }
}
