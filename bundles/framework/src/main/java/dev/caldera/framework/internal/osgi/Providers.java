package dev.caldera.framework.internal.osgi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.osgi.framework.Version;

/**
 * Every provider of each name (plugin factories or actions), so that when one leaves, another that
 * is still there takes over. Of several providers of one name the one in force is the one of the
 * highest bundle version, then of the highest {@code service.ranking}, then the one registered
 * first (lowest {@code service.id}). Not thread-safe: the registry guards it.
 */
final class Providers<T> {

  /** One service: what it provides and how it ranks. */
  record Provider<T>(T service, Version version, int ranking, long serviceId) {}

  static final Comparator<Provider<?>> BEST_FIRST =
      Comparator.<Provider<?>, Version>comparing(Provider::version)
          .reversed()
          .thenComparing(Comparator.<Provider<?>>comparingInt(Provider::ranking).reversed())
          .thenComparingLong(Provider::serviceId);

  private final Map<String, List<Provider<T>>> byName = new TreeMap<>();

  /** Adds a provider; returns the one now in force for its name. */
  T add(String name, Provider<T> provider) {
    List<Provider<T>> list = byName.computeIfAbsent(name, n -> new ArrayList<>());
    list.add(provider);
    list.sort(BEST_FIRST);
    return list.get(0).service();
  }

  /** Removes the provider of {@code service}; returns the one now in force, if any is left. */
  Optional<T> remove(String name, T service) {
    List<Provider<T>> list = byName.get(name);
    if (list == null) {
      return Optional.empty();
    }
    list.removeIf(p -> p.service() == service);
    if (list.isEmpty()) {
      byName.remove(name);
      return Optional.empty();
    }
    return Optional.of(list.get(0).service());
  }

  /**
   * One line per provider that is not in force because another provides its name: the name, the
   * refused provider and the one in force, in name order.
   */
  List<String> refusals(java.util.function.Function<T, String> describe) {
    List<String> out = new ArrayList<>();
    byName.forEach(
        (name, list) -> {
          for (int i = 1; i < list.size(); i++) {
            out.add(
                "plugin "
                    + name
                    + ": "
                    + describe.apply(list.get(i).service())
                    + " refused, "
                    + describe.apply(list.get(0).service())
                    + " provides it (highest bundle version, then service.ranking, then first"
                    + " registered)");
          }
        });
    return out;
  }

  /** The providers of {@code name}, best first. */
  List<Provider<T>> of(String name) {
    return List.copyOf(byName.getOrDefault(name, List.of()));
  }

  /** A provider from DS service properties and the bundle of the service's class. */
  static <T> Provider<T> provider(T service, Version bundleVersion, Map<String, ?> properties) {
    Object ranking = properties.get("service.ranking");
    Object id = properties.get("service.id");
    return new Provider<>(
        service,
        bundleVersion == null ? Version.emptyVersion : bundleVersion,
        ranking instanceof Integer r ? r : 0,
        id instanceof Long l ? l : Long.MAX_VALUE);
  }
}
