package dev.caldera.runtime.run;

import java.lang.reflect.InvocationTargetException;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Map;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;

/**
 * Writes configurations through the Configuration Admin service running inside the framework. The
 * launcher does not share the service's classes (only the framework jar is on both sides), so it
 * calls the service's interface reflectively, through the class the service's bundle exports.
 */
final class ConfigAdminBridge {

  private static final String ADMIN = "org.osgi.service.cm.ConfigurationAdmin";
  private static final String CONFIGURATION = "org.osgi.service.cm.Configuration";

  private ConfigAdminBridge() {}

  /** Creates or replaces the configuration {@code pid} with {@code properties}. */
  static void update(BundleContext context, String pid, Map<String, Object> properties)
      throws ReflectiveOperationException {
    ServiceReference<?> ref = context.getServiceReference(ADMIN);
    if (ref == null) {
      throw new IllegalStateException("Configuration Admin is not running");
    }
    Object admin = context.getService(ref);
    try {
      Class<?> adminType = ref.getBundle().loadClass(ADMIN);
      Class<?> configurationType = ref.getBundle().loadClass(CONFIGURATION);
      // "?" binds the configuration to whichever bundle asks for the PID.
      Object configuration =
          adminType
              .getMethod("getConfiguration", String.class, String.class)
              .invoke(admin, pid, "?");
      Dictionary<String, Object> dictionary = new Hashtable<>(properties);
      configurationType.getMethod("update", Dictionary.class).invoke(configuration, dictionary);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(
          "cannot configure " + pid + ": " + e.getCause().getMessage(), e.getCause());
    } finally {
      context.ungetService(ref);
    }
  }
}
