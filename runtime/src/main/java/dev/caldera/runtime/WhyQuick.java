package dev.caldera.runtime;

import java.io.PrintStream;
import java.util.OptionalInt;

/**
 * {@code caldera why} without picocli, for the command lines people type: {@code why [--admin URL]
 * [-o|--output text|json] NS/NAME}, each option at most once, with its value as the next argument
 * or after {@code =}. Building picocli's model of the command took about a third of the command's
 * time: picocli is compiled for Java 5, and the JVM neither keeps such classes in the class data
 * sharing archive nor verifies them quickly. Any other line (help, version, {@code --stacktrace},
 * an {@code @file}, a mistake) is left to {@link WhyCommand} through picocli, which also words its
 * errors; both answer the same for every line this class takes.
 */
public final class WhyQuick {

  private WhyQuick() {}

  /** The exit code of {@code args} ({@code why ...}) run here, or empty to leave it to picocli. */
  public static OptionalInt run(String[] args, PrintStream out, PrintStream err) {
    if (args.length < 2 || !args[0].equals("why")) {
      return OptionalInt.empty();
    }
    String url = null;
    String output = null;
    String podGroup = null;
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      String name = a;
      String value = null;
      int eq = a.indexOf('=');
      if (a.startsWith("-") && eq > 0) {
        name = a.substring(0, eq);
        value = a.substring(eq + 1);
      }
      boolean admin = name.equals("--admin");
      boolean isOutput = name.equals("-o") || name.equals("--output");
      if (admin || isOutput) {
        if (value == null) {
          if (i + 1 >= args.length) {
            return OptionalInt.empty();
          }
          value = args[++i];
          if (value.startsWith("-")) {
            return OptionalInt.empty();
          }
        }
        if (admin) {
          if (url != null) {
            return OptionalInt.empty();
          }
          url = value;
        } else {
          if (output != null) {
            return OptionalInt.empty();
          }
          output = value;
        }
      } else if (a.startsWith("-") || a.startsWith("@") || podGroup != null) {
        return OptionalInt.empty();
      } else {
        podGroup = a;
      }
    }
    if (podGroup == null || !WhyCommand.isPodGroup(podGroup)) {
      return OptionalInt.empty();
    }
    if (output == null) {
      output = "text";
    } else if (!output.equals("text") && !output.equals("json")) {
      return OptionalInt.empty();
    }
    AdminAddress address = new AdminAddress();
    address.url = url;
    try {
      return OptionalInt.of(WhyCommand.ask(address, podGroup, output, out, err));
    } catch (RuntimeException e) {
      err.println("error: " + Errors.describe(e));
      return OptionalInt.of(1);
    }
  }
}
