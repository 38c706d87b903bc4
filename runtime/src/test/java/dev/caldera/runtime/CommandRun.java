package dev.caldera.runtime;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs {@code caldera} commands in the test's process and keeps what they print. */
final class CommandRun {

  private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();

  /** Runs one command line; its output adds to what earlier runs printed. */
  int run(String... args) {
    PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    return CalderaCommand.commandLine(out, err).execute(args);
  }

  String out() {
    return outBytes.toString(StandardCharsets.UTF_8);
  }

  String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }

  /** Forgets what was printed so far. */
  void reset() {
    outBytes.reset();
    errBytes.reset();
  }
}
