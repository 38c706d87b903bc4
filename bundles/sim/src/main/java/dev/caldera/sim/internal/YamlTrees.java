package dev.caldera.sim.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.caldera.sim.ScenarioException;
import dev.caldera.sim.TextFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.constructor.BaseConstructor;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Reads YAML text into a Jackson tree.
 *
 * <p>SnakeYAML builds the document first because Jackson's YAML parser does not resolve aliases of
 * mappings ({@code *id001} would read as the string "id001"), and such aliases occur in saved
 * manifests. Duplicate keys are an error; timestamps stay text.
 */
public final class YamlTrees {

  /**
   * Builds the trees, and parses strict JSON with duplicate keys refused (the YAML reader refuses
   * them too).
   */
  private static final ObjectMapper MAPPER;

  /**
   * Characters in one YAML text, and in one string of it: a snapshot of a large cluster (10k nodes,
   * 100k pods) is about 50 MB. A larger file is refused before it is read ({@link
   * TextFiles#MAX_SCENARIO_BYTES}).
   */
  public static final int MAX_CODE_POINTS = TextFiles.MAX_SCENARIO_BYTES;

  static {
    JsonFactory json =
        JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(
                // Jackson's default (20 M characters per string) would send a JSON text with a
                // longer string to the YAML reader; the text's own limit is the one that holds.
                StreamReadConstraints.builder().maxStringLength(MAX_CODE_POINTS).build())
            .build();
    MAPPER = JsonMapper.builder(json).enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
  }

  /**
   * Values (scalars, lists and mappings) in one document once aliases are expanded, at least: a
   * document may hold as many values as it has characters (no value is written in less than one),
   * but SnakeYAML's own limits (50 aliases, 50 levels of nesting) still let a few kilobytes of
   * aliases to aliases expand to billions of values.
   */
  public static final int MAX_VALUES = 1_000_000;

  private YamlTrees() {}

  /**
   * Parses one YAML document.
   *
   * @param source names the text in messages
   * @throws ScenarioException with the line and column of a syntax error
   */
  public static JsonNode read(String text, String source) throws ScenarioException {
    JsonNode json = strictJson(text);
    if (json != null) {
      return json;
    }
    Object document;
    try {
      document = constructor(text).getSingleData(Object.class);
    } catch (MarkedYAMLException e) {
      throw new ScenarioException(source + ": not valid YAML: " + describe(e), e);
    } catch (YAMLException e) {
      throw new ScenarioException(source + ": not valid YAML: " + firstLine(e.getMessage()), e);
    }
    return tree(document, source, text.length());
  }

  /**
   * Parses every document of a YAML stream ({@code ---} separated), skipping empty ones.
   *
   * @throws ScenarioException with the line and column of a syntax error
   */
  public static List<JsonNode> readAll(String text, String source) throws ScenarioException {
    List<JsonNode> out = new ArrayList<>();
    try {
      BaseConstructor documents = constructor(text);
      while (documents.checkData()) {
        Object document = documents.getData();
        if (document != null) {
          out.add(tree(document, source, text.length()));
        }
      }
    } catch (MarkedYAMLException e) {
      throw new ScenarioException(source + ": not valid YAML: " + describe(e), e);
    } catch (YAMLException e) {
      throw new ScenarioException(source + ": not valid YAML: " + firstLine(e.getMessage()), e);
    }
    return out;
  }

  /**
   * A text that is one strict JSON object ({@code caldera snapshot --format json}) read by
   * Jackson's JSON parser, several times faster than SnakeYAML on a large snapshot; null when the
   * text is not that (anything else, duplicate keys included, is then read as YAML, which JSON is a
   * part of, so the answer or the error is the YAML reader's). JSON has no aliases, so its values
   * are at most its characters.
   */
  private static JsonNode strictJson(String text) {
    int start = 0;
    while (start < text.length() && Character.isWhitespace(text.charAt(start))) {
      start++;
    }
    if (start == text.length() || text.charAt(start) != '{') {
      return null;
    }
    try (JsonParser parser = MAPPER.createParser(text)) {
      JsonNode node = MAPPER.readTree(parser);
      return parser.nextToken() == null ? node : null;
    } catch (IOException notStrictJson) {
      return null;
    }
  }

  /**
   * SnakeYAML's loading chain (what {@code Yaml.load} builds) over {@link WholeTextReader}, which
   * scans a long scalar in linear time.
   */
  private static BaseConstructor constructor(String text) {
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(false);
    options.setCodePointLimit(MAX_CODE_POINTS);
    // SnakeYAML's defaults stay: 50 aliases for collections, 50 levels of nesting.
    BaseConstructor constructor = new TextTimestamps(options);
    // What Yaml's constructor copies from the options.
    constructor.setAllowDuplicateKeys(options.isAllowDuplicateKeys());
    constructor.setWarnOnDuplicateKeys(options.isWarnOnDuplicateKeys());
    constructor.setWrappedToRootException(options.isWrappedToRootException());
    constructor.setComposer(
        new Composer(new ParserImpl(new WholeTextReader(text), options), new Resolver(), options));
    return constructor;
  }

  private static JsonNode tree(Object document, String source, int characters)
      throws ScenarioException {
    int[] budget = {Math.max(MAX_VALUES, characters)};
    return node(document, source, budget);
  }

  /** The tree of one SnakeYAML value, counting every value against {@code budget}. */
  private static JsonNode node(Object value, String source, int[] budget) throws ScenarioException {
    if (--budget[0] < 0) {
      throw new ScenarioException(
          source
              + ": not valid YAML: more values once aliases are expanded than the text has"
              + " characters (at least "
              + MAX_VALUES
              + "; aliases of aliases?)");
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode out = MAPPER.createObjectNode();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!(e.getKey() instanceof String key)) {
          throw new ScenarioException(
              source
                  + ": not valid YAML: key "
                  + e.getKey()
                  + " is not a string (keys must be strings)");
        }
        out.set(key, node(e.getValue(), source, budget));
      }
      return out;
    }
    if (value instanceof Collection<?> items) {
      ArrayNode out = MAPPER.createArrayNode();
      for (Object item : items) {
        out.add(node(item, source, budget));
      }
      return out;
    }
    return MAPPER.valueToTree(value);
  }

  private static String describe(MarkedYAMLException e) {
    Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
    StringBuilder sb = new StringBuilder();
    if (mark != null) {
      sb.append("line ").append(mark.getLine() + 1);
      sb.append(", column ").append(mark.getColumn() + 1).append(": ");
    }
    String problem = e.getProblem() != null ? e.getProblem() : e.getContext();
    sb.append(firstLine(problem == null ? "syntax error" : problem));
    return sb.toString();
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return (nl < 0 ? s : s.substring(0, nl)).trim();
  }

  /** SafeConstructor that leaves timestamps as the text they were written as. */
  private static final class TextTimestamps extends SafeConstructor {
    TextTimestamps(LoaderOptions options) {
      super(options);
      this.yamlConstructors.put(Tag.TIMESTAMP, new ConstructYamlStr());
    }
  }
}
