package dev.caldera.plugins.extender;

import dev.caldera.api.GoDuration;
import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code extender} plugin's arguments, with Volcano's keys and defaults.
 *
 * @param urlPrefix {@value #URL_PREFIX}: the extender's base URL; required (http or https) as soon
 *     as a verb is given
 * @param httpTimeout {@value #HTTP_TIMEOUT}: a Go duration, default {@code 1s}, covering the whole
 *     exchange including the response body; {@code 0} means no limit, as in Go's {@code
 *     http.Client}
 * @param verbs the configured verbs ({@code extender.<name>Verb}) and their paths; a verb that is
 *     absent or empty is not called and its function not registered
 * @param ignorable {@value #IGNORABLE}, default false: whether a failed call is ignored (see the
 *     plugin for what each function answers then)
 * @param managedResources {@value #MANAGED_RESOURCES}: a list (or comma-separated string) of
 *     resource names; when not empty, task-level calls are made only for tasks whose containers
 *     request one of them
 */
record ExtenderArguments(
    String urlPrefix,
    Duration httpTimeout,
    Map<Verb, String> verbs,
    boolean ignorable,
    Set<String> managedResources) {

  static final String URL_PREFIX = "extender.urlPrefix";
  static final String HTTP_TIMEOUT = "extender.httpTimeout";
  static final String IGNORABLE = "extender.ignorable";
  static final String MANAGED_RESOURCES = "extender.managedResources";

  /** Volcano's default timeout. */
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(1);

  ExtenderArguments {
    EnumMap<Verb, String> copy = new EnumMap<>(Verb.class);
    copy.putAll(verbs);
    verbs = Collections.unmodifiableMap(copy);
    managedResources = Collections.unmodifiableSet(new LinkedHashSet<>(managedResources));
  }

  /** The path of {@code verb}, or null when it is not configured. */
  String verb(Verb verb) {
    return verbs.get(verb);
  }

  /** Whether {@code verb} is configured. */
  boolean has(Verb verb) {
    return verbs.containsKey(verb);
  }

  /**
   * Reads and validates the arguments; unknown keys are ignored, as in Volcano.
   *
   * @throws PluginArgumentException naming the key of a value of the wrong type, a malformed
   *     duration or URL, or a missing URL when verbs are set
   */
  static ExtenderArguments from(PluginArguments args) {
    String plugin = args.plugin();
    String urlPrefix = args.getString(URL_PREFIX, "").trim();
    Map<Verb, String> verbs = new EnumMap<>(Verb.class);
    for (Verb v : Verb.values()) {
      String path = args.getString(v.key(), "").trim();
      if (!path.isEmpty()) {
        verbs.put(v, path);
      }
    }
    Duration timeout = parseTimeout(args);
    boolean ignorable = args.getBoolean(IGNORABLE, false);
    Set<String> managed = parseManagedResources(args);
    if (!verbs.isEmpty()) {
      checkUrls(plugin, urlPrefix, verbs);
    }
    return new ExtenderArguments(urlPrefix, timeout, verbs, ignorable, managed);
  }

  private static Duration parseTimeout(PluginArguments args) {
    String text = args.getString(HTTP_TIMEOUT, "").trim();
    if (text.isEmpty()) {
      return DEFAULT_TIMEOUT;
    }
    Duration d;
    try {
      d = GoDuration.parse(text);
    } catch (IllegalArgumentException e) {
      throw args.wrong(HTTP_TIMEOUT, text, "a Go duration such as 100ms, 1s or 1m30s");
    }
    if (d.isNegative()) {
      throw args.wrong(HTTP_TIMEOUT, text, "a duration of 0 (no limit) or more");
    }
    return d;
  }

  private static Set<String> parseManagedResources(PluginArguments args) {
    Object v = args.values().get(MANAGED_RESOURCES);
    Set<String> out = new LinkedHashSet<>();
    if (v == null) {
      return out;
    }
    if (v instanceof String s) {
      for (String part : s.split(",", -1)) {
        addName(out, part);
      }
      return out;
    }
    if (v instanceof List<?> list) {
      for (Object item : list) {
        if (!(item instanceof String s)) {
          throw args.wrong(MANAGED_RESOURCES, v, "a list of resource names");
        }
        addName(out, s);
      }
      return out;
    }
    throw args.wrong(MANAGED_RESOURCES, v, "a list of resource names");
  }

  private static void addName(Set<String> out, String raw) {
    String name = raw.trim();
    if (!name.isEmpty()) {
      out.add(name);
    }
  }

  private static void checkUrls(String plugin, String urlPrefix, Map<Verb, String> verbs) {
    if (urlPrefix.isEmpty()) {
      throw new PluginArgumentException(
          URL_PREFIX,
          "plugin "
              + plugin
              + ": argument "
              + URL_PREFIX
              + " is required when a verb is configured ("
              + verbs.keySet().iterator().next().key()
              + ")");
    }
    URI base;
    try {
      base = new URI(urlPrefix);
    } catch (URISyntaxException e) {
      throw new PluginArgumentException(
          URL_PREFIX,
          "plugin " + plugin + ": argument " + URL_PREFIX + " is not a URL: " + e.getMessage());
    }
    String scheme = base.getScheme();
    if (scheme == null
        || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
        || base.getHost() == null) {
      throw new PluginArgumentException(
          URL_PREFIX,
          "plugin "
              + plugin
              + ": argument "
              + URL_PREFIX
              + " is \""
              + urlPrefix
              + "\", expected an http or https URL such as http://127.0.0.1:8080");
    }
    for (Map.Entry<Verb, String> e : verbs.entrySet()) {
      try {
        new URI(url(urlPrefix, e.getValue()));
      } catch (URISyntaxException ex) {
        throw new PluginArgumentException(
            e.getKey().key(),
            "plugin "
                + plugin
                + ": argument "
                + e.getKey().key()
                + " is \""
                + e.getValue()
                + "\", which does not make a valid URL: "
                + ex.getMessage());
      }
    }
  }

  /** {@code <urlPrefix without trailing slashes>/<verb>}, as Volcano builds it. */
  static String url(String urlPrefix, String verb) {
    int end = urlPrefix.length();
    while (end > 0 && urlPrefix.charAt(end - 1) == '/') {
      end--;
    }
    return urlPrefix.substring(0, end) + "/" + verb;
  }
}
