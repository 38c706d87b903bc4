package dev.caldera.sim.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.caldera.sim.ScenarioException;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;

/**
 * Reads YAML text into a Jackson tree.
 *
 * <p>SnakeYAML builds the document first because Jackson's YAML parser does not resolve aliases of
 * mappings ({@code *id001} would read as the string "id001"), and such aliases occur in saved
 * manifests. Duplicate keys are an error; timestamps stay text.
 */
public final class YamlTrees {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int MAX_CODE_POINTS = 256 * 1024 * 1024;

  private YamlTrees() {}

  /**
   * Parses one YAML document.
   *
   * @param source names the text in messages
   * @throws ScenarioException with the line and column of a syntax error
   */
  public static JsonNode read(String text, String source) throws ScenarioException {
    Object document;
    try {
      document = yaml().load(text);
    } catch (MarkedYAMLException e) {
      throw new ScenarioException(source + ": not valid YAML: " + describe(e), e);
    } catch (YAMLException e) {
      throw new ScenarioException(source + ": not valid YAML: " + firstLine(e.getMessage()), e);
    }
    return tree(document, source);
  }

  /**
   * Parses every document of a YAML stream ({@code ---} separated), skipping empty ones.
   *
   * @throws ScenarioException with the line and column of a syntax error
   */
  public static List<JsonNode> readAll(String text, String source) throws ScenarioException {
    List<JsonNode> out = new ArrayList<>();
    try {
      for (Object document : yaml().loadAll(text)) {
        if (document != null) {
          out.add(tree(document, source));
        }
      }
    } catch (MarkedYAMLException e) {
      throw new ScenarioException(source + ": not valid YAML: " + describe(e), e);
    } catch (YAMLException e) {
      throw new ScenarioException(source + ": not valid YAML: " + firstLine(e.getMessage()), e);
    }
    return out;
  }

  private static Yaml yaml() {
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(false);
    options.setCodePointLimit(MAX_CODE_POINTS);
    options.setMaxAliasesForCollections(1000);
    DumperOptions dumper = new DumperOptions();
    return new Yaml(new TextTimestamps(options), new Representer(dumper), dumper, options);
  }

  private static JsonNode tree(Object document, String source) throws ScenarioException {
    try {
      return MAPPER.valueToTree(document);
    } catch (IllegalArgumentException e) {
      throw new ScenarioException(
          source + ": not valid YAML: " + firstLine(e.getMessage()) + " (keys must be strings)", e);
    }
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
