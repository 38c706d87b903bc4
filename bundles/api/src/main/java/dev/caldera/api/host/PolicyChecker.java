package dev.caldera.api.host;

import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Checks a policy file before the loop hands it to sessions. A service, published by the {@code
 * policy} plugin's bundle so that the text it checks is the text its sessions run, compiled once:
 * when one is registered, a file with errors is refused and the last good version of that file
 * stays in force; files loaded while none was registered are checked when one comes.
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
