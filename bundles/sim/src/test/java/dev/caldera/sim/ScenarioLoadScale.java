package dev.caldera.sim;

import java.nio.file.Path;

/**
 * Times loading a large scenario file, e.g. a snapshot of 10k nodes / 100k pods written by {@code
 * SnapshotScale} (bundles/kube). Not a test: run it by hand (see docs/what-if.md). {@code
 * ScenarioLoadScale FILE}: one warm-up load, then the measured one.
 */
public final class ScenarioLoadScale {

  private ScenarioLoadScale() {}

  public static void main(String[] args) throws Exception {
    Path file = Path.of(args[0]);
    ScenarioLoader.load(file);
    long start = System.nanoTime();
    Scenario s = ScenarioLoader.load(file);
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(
        "loaded %s: %d nodes, %d pods, %d pod groups in %.2f s%n",
        file,
        s.objects().nodes().size(),
        s.objects().pods().size(),
        s.objects().podGroups().size(),
        seconds);
  }
}
