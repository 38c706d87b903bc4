package dev.caldera.framework.loop;

import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Checks a policy file before the loop hands it to sessions. A service: when one is registered, a
 * file with errors is refused and the last good version of that file stays in force.
 */
@ConsumerType
public interface PolicyChecker {

  /**
   * The errors of {@code text}, each as {@code file:line:column: message}; empty when it compiles.
   */
  List<String> check(String fileName, String text);

  /**
   * The policy name {@code text} declares, or null when it cannot tell; two files in force never
   * declare the same name (the later one is refused).
   */
  default String policyName(String fileName, String text) {
    return null;
  }
}
