package dev.caldera.runtime;

import dev.caldera.framework.conf.ConfException;
import dev.caldera.framework.conf.SchedulerConf;
import dev.caldera.sim.ScenarioLoader;
import dev.caldera.sim.TextFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Reads what a scenario (or a snapshot of a cluster) is replayed under instead of its own conf and
 * policies: a {@code volcano-scheduler.conf} file and a directory of {@code .policy} files.
 */
final class ReplayOptions {

  private ReplayOptions() {}

  /**
   * The replay for {@code conf} and {@code policies}, either of which may be null (keep the file's
   * own).
   *
   * @throws ParameterException naming the file and what is wrong with it
   */
  static ScenarioLoader.Replay read(CommandSpec spec, Path conf, Path policies) {
    return new ScenarioLoader.Replay(
        conf == null ? null : conf(spec, conf), policies == null ? null : policies(spec, policies));
  }

  /** The conf file's limit, as the scheduler's own. */
  private static final long MAX_CONF_BYTES = 256 * 1024;

  private static SchedulerConf conf(CommandSpec spec, Path file) {
    try {
      return SchedulerConf.parse(TextFiles.read(file, MAX_CONF_BYTES), file.toString());
    } catch (IOException e) {
      throw new ParameterException(
          spec.commandLine(), "cannot read the conf " + file + ": " + message(e));
    } catch (ConfException e) {
      throw new ParameterException(
          spec.commandLine(), file + ": " + String.join("; ", e.problems()));
    }
  }

  /** Every {@code .policy} file directly in {@code dir}, by file name, sorted. */
  private static Map<String, String> policies(CommandSpec spec, Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new ParameterException(
          spec.commandLine(), "--policies expects a directory of .policy files: " + dir);
    }
    Map<String, String> out = new LinkedHashMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> sorted =
          files
              .filter(f -> f.getFileName().toString().endsWith(".policy"))
              .filter(Files::isRegularFile)
              .sorted()
              .toList();
      for (Path f : sorted) {
        out.put(f.getFileName().toString(), TextFiles.read(f, PolicyCommand.MAX_READ_BYTES));
      }
    } catch (IOException e) {
      throw new ParameterException(spec.commandLine(), "cannot read " + dir + ": " + message(e));
    }
    return out;
  }

  private static String message(IOException e) {
    return e instanceof TextFiles.NotReadException ? e.getMessage() : e.toString();
  }
}
