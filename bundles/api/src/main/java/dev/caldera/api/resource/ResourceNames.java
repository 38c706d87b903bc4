package dev.caldera.api.resource;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Interns resource names to small dense indices so that a resource vector ({@link ResourceView})
 * can be a plain array.
 *
 * <p>Indices 0, 1 and 2 are always {@code cpu}, {@code memory} and {@code pods}; other names get
 * the next free index the first time they are seen, for the life of the JVM. The table only grows,
 * and lookups of known names take no lock.
 */
public final class ResourceNames {

  public static final String CPU = "cpu";
  public static final String MEMORY = "memory";
  public static final String PODS = "pods";
  public static final String EPHEMERAL_STORAGE = "ephemeral-storage";

  public static final int CPU_INDEX = 0;
  public static final int MEMORY_INDEX = 1;
  public static final int PODS_INDEX = 2;

  private static final ConcurrentHashMap<String, Integer> INDEX = new ConcurrentHashMap<>();
  private static volatile String[] names = new String[0];

  static {
    indexOf(CPU);
    indexOf(MEMORY);
    indexOf(PODS);
  }

  private ResourceNames() {}

  /** The index of {@code name}, assigning the next one if the name is new. */
  public static int indexOf(String name) {
    Integer index = INDEX.get(name);
    if (index != null) {
      return index;
    }
    synchronized (ResourceNames.class) {
      index = INDEX.get(name);
      if (index != null) {
        return index;
      }
      String[] grown = Arrays.copyOf(names, names.length + 1);
      grown[names.length] = name;
      names = grown;
      INDEX.put(name, names.length - 1);
      return names.length - 1;
    }
  }

  /** The index of {@code name}, or -1 if no resource of that name was ever seen. */
  public static int existingIndexOf(String name) {
    Integer index = INDEX.get(name);
    return index == null ? -1 : index;
  }

  /** The name at {@code index}. */
  public static String nameOf(int index) {
    return names[index];
  }

  /** How many names are known. */
  public static int count() {
    return names.length;
  }

  /**
   * Whether Kubernetes counts {@code name} as a scalar resource ({@code IsScalarResourceName}):
   * extended resources ({@code domain/name} outside {@code kubernetes.io}), {@code hugepages-*},
   * {@code kubernetes.io/}-prefixed native names and {@code attachable-volumes-*}.
   */
  public static boolean isScalarResourceName(String name) {
    if (name.startsWith("hugepages-") || name.startsWith("attachable-volumes-")) {
      return true;
    }
    int slash = name.indexOf('/');
    if (slash <= 0) {
      return false;
    }
    if (name.startsWith("requests.") || name.startsWith("limits.")) {
      return false;
    }
    String domain = name.substring(0, slash);
    if (domain.equals("kubernetes.io") || domain.endsWith(".kubernetes.io")) {
      return name.startsWith("kubernetes.io/");
    }
    return true;
  }

  /**
   * An amount of resource {@code name} in the units of {@link ResourceView} (milli-cores, bytes, a
   * count of pods, thousandths of other resources) as a Kubernetes quantity: {@code cpu 20000} is
   * {@code 20}.
   */
  public static Quantity quantity(String name, double value) {
    long v = Math.round(value);
    return switch (name) {
      case MEMORY -> Quantity.ofBytes(v);
      case PODS -> Quantity.of(v);
      default -> Quantity.ofMilli(v);
    };
  }
}
