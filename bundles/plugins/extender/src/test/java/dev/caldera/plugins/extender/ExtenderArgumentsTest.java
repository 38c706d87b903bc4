package dev.caldera.plugins.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExtenderArgumentsTest {

  private static ExtenderArguments parse(Map<String, Object> values) {
    return ExtenderArguments.from(new PluginArguments("extender", values, false));
  }

  private static Map<String, Object> map(Object... keyValues) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      m.put((String) keyValues[i], keyValues[i + 1]);
    }
    return m;
  }

  private static void assertRefused(Map<String, Object> values, String key, String text) {
    assertThatThrownBy(() -> parse(values))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("extender")
        .hasMessageContaining(key)
        .hasMessageContaining(text)
        .satisfies(e -> assertThat(((PluginArgumentException) e).key()).isEqualTo(key));
  }

  @Test
  void from_noArguments_givesVolcanoDefaults() {
    ExtenderArguments args = parse(Map.of());
    assertThat(args.urlPrefix()).isEmpty();
    assertThat(args.httpTimeout()).isEqualTo(Duration.ofSeconds(1));
    assertThat(args.verbs()).isEmpty();
    assertThat(args.ignorable()).isFalse();
    assertThat(args.managedResources()).isEmpty();
  }

  @Test
  void from_readsEveryKey() {
    Map<String, Object> values = map("extender.urlPrefix", "http://127.0.0.1:8080/");
    for (Verb v : Verb.values()) {
      values.put(v.key(), v.name().toLowerCase());
    }
    values.put("extender.httpTimeout", "100ms");
    values.put("extender.ignorable", true);
    values.put("extender.managedResources", List.of("nvidia.com/gpu", " nvidia.com/gpumem "));
    ExtenderArguments args = parse(values);
    assertThat(args.urlPrefix()).isEqualTo("http://127.0.0.1:8080/");
    assertThat(args.httpTimeout()).isEqualTo(Duration.ofMillis(100));
    assertThat(args.ignorable()).isTrue();
    assertThat(args.managedResources()).containsExactly("nvidia.com/gpu", "nvidia.com/gpumem");
    assertThat(args.verbs()).hasSize(Verb.values().length);
    assertThat(args.verb(Verb.JOB_ENQUEUED)).isEqualTo("job_enqueued");
    assertThat(args.verb(Verb.DEALLOCATE_FUNC)).isEqualTo("deallocate_func");
  }

  @Test
  void verbKeys_areVolcanosSpelling() {
    assertThat(Verb.PREDICATE.key()).isEqualTo("extender.predicateVerb");
    assertThat(Verb.QUEUE_OVERUSED.key()).isEqualTo("extender.queueOverusedVerb");
    assertThat(Verb.ALLOCATE_FUNC.key()).isEqualTo("extender.allocateFuncVerb");
    assertThat(Verb.ON_SESSION_OPEN.key()).isEqualTo("extender.onSessionOpenVerb");
  }

  @Test
  void emptyVerb_isNotConfigured() {
    ExtenderArguments args =
        parse(map("extender.predicateVerb", "  ", "extender.prioritizeVerb", ""));
    assertThat(args.verbs()).isEmpty();
  }

  @Test
  void managedResources_acceptsACommaSeparatedString() {
    assertThat(parse(map("extender.managedResources", "a.com/x, b.com/y,,")).managedResources())
        .containsExactly("a.com/x", "b.com/y");
  }

  @Test
  void managedResources_wrongType_isRefused() {
    assertRefused(
        map("extender.managedResources", Map.of("a", 1)),
        "extender.managedResources",
        "a list of resource names");
    assertRefused(
        map("extender.managedResources", List.of("a.com/x", 3)),
        "extender.managedResources",
        "a list of resource names");
  }

  @Test
  void httpTimeout_readsGoDurations() {
    assertThat(parse(map("extender.httpTimeout", "1m30s")).httpTimeout())
        .isEqualTo(Duration.ofSeconds(90));
    assertThat(parse(map("extender.httpTimeout", "0")).httpTimeout()).isZero();
  }

  @Test
  void httpTimeout_badValues_areRefused() {
    assertRefused(map("extender.httpTimeout", "fast"), "extender.httpTimeout", "Go duration");
    assertRefused(map("extender.httpTimeout", 5), "extender.httpTimeout", "Go duration");
    assertRefused(map("extender.httpTimeout", "-1s"), "extender.httpTimeout", "0 (no limit)");
    assertRefused(map("extender.httpTimeout", List.of("1s")), "extender.httpTimeout", "string");
  }

  @Test
  void ignorable_badValue_isRefused() {
    assertRefused(map("extender.ignorable", "maybe"), "extender.ignorable", "true or false");
  }

  @Test
  void verbWithoutUrlPrefix_isRefused() {
    assertRefused(map("extender.predicateVerb", "predicate"), "extender.urlPrefix", "is required");
  }

  @Test
  void urlPrefix_notHttp_isRefused() {
    assertRefused(
        map("extender.urlPrefix", "ftp://host", "extender.predicateVerb", "p"),
        "extender.urlPrefix",
        "http or https URL");
    assertRefused(
        map("extender.urlPrefix", "localhost:8080", "extender.predicateVerb", "p"),
        "extender.urlPrefix",
        "http or https URL");
    assertRefused(
        map("extender.urlPrefix", "http://bad host", "extender.predicateVerb", "p"),
        "extender.urlPrefix",
        "not a URL");
  }

  @Test
  void verbMakingAnInvalidUrl_isRefused() {
    assertRefused(
        map("extender.urlPrefix", "http://127.0.0.1", "extender.jobReadyVerb", "job ready"),
        "extender.jobReadyVerb",
        "valid URL");
  }

  @Test
  void verb_wrongType_isRefused() {
    assertRefused(
        map("extender.urlPrefix", "http://127.0.0.1", "extender.predicateVerb", List.of("p")),
        "extender.predicateVerb",
        "string");
  }

  @Test
  void url_stripsTrailingSlashesOfThePrefix() {
    assertThat(ExtenderArguments.url("http://h:1/api//", "predicate"))
        .isEqualTo("http://h:1/api/predicate");
  }
}
