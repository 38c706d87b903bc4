package dev.caldera.dsl;

import dev.caldera.dsl.internal.library.Library;
import java.util.List;
import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The one owner of policy compilation in a scheduler: the policies known across sessions, the
 * checks of the policies directory and the policies bundles ship. Each distinct file text is
 * compiled once, whether the loop checks it first ({@link #check}), a session's snapshot brings it
 * ({@link #refresh}) or a bundle ships it ({@link #compileShipped}); the compiled policy is what
 * sessions run. A file whose new text has errors keeps its last good policy running; a file that
 * disappeared takes its policy with it.
 *
 * <p>One per scheduler: in OSGi the language bundle publishes one as a service, which the {@code
 * policy} and {@code capacity-card} plugins share; without OSGi each caller makes its own with
 * {@link #create}. Which errors were reported is each client's own memory ({@link ReportedErrors}).
 *
 * <p>Thread-safe; compilation runs outside the library's lock, so a long compilation does not hold
 * up callers that need only known texts.
 */
@ProviderType
public interface PolicyLibrary {

  /** A new, empty library. */
  static PolicyLibrary create() {
    return new Library();
  }

  /**
   * What a session sees.
   *
   * @param policies the usable policies by name: those of the files that compile, and the last good
   *     version of a file whose current text has errors
   * @param errors the compile result of every file whose current text has errors (also a file that
   *     declares a name an earlier file declares), in the order of the sources
   */
  record Snapshot(Map<String, Policy> policies, List<CompileResult> errors) {

    public Snapshot {
      policies = Map.copyOf(policies);
      errors = List.copyOf(errors);
    }

    /**
     * For a policy that is not usable: {@code " (...)"} with the first error of the files that
     * declare it or are named after it, else empty.
     */
    public String errorsOf(String policy) {
      for (CompileResult r : errors) {
        if (policy.equals(r.policyName()) || r.fileName().equals(policy + ".policy")) {
          return " (" + r.diagnostics().get(0).headline() + ")";
        }
      }
      return "";
    }
  }

  /**
   * Checks a file's text before the loop hands it to sessions: the compile result sessions will use
   * for that text, kept until the file is checked again.
   */
  CompileResult check(String fileName, String text);

  /**
   * Compiles what changed in {@code sources} (file name → text) and tells which policies a session
   * may use. Texts that are in neither {@code sources} nor the last checks are forgotten.
   */
  Snapshot refresh(Map<String, String> sources);

  /**
   * Compiles a policy a bundle ships (not a file of the policies directory), once per distinct
   * text; the result is kept for the library's life.
   */
  CompileResult compileShipped(String fileName, String text);

  /** How many texts were compiled so far. */
  int compilations();
}
