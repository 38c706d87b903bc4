package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The unpacked distribution has its launcher, every jar, the default conf and the demo. */
class DistributionTest {

  private record Run(int code, String output) {}

  private static Run launch(String... args) throws IOException, InterruptedException {
    return launchIn(Distribution.dir(), Map.of(), args);
  }

  /** Runs {@code dir}/bin/caldera with {@code env} added to this process's environment. */
  private static Run launchIn(Path dir, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(dir.resolve("bin/caldera").toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
    builder.environment().remove("JAVA_OPTS");
    builder.environment().remove("CALDERA_CDS");
    builder.environment().putAll(env);
    // To a file, not a pipe: a command that writes more than a pipe holds would block until read.
    Path log = Files.createTempFile("caldera-launch", ".log");
    Process p = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean done = p.waitFor(2, TimeUnit.MINUTES);
    String output = Files.readString(log);
    Files.delete(log);
    assertThat(done).as("bin/caldera finished; output so far:%n%s", output).isTrue();
    return new Run(p.exitValue(), output);
  }

  @Test
  void layout_hasLauncherConfAndDemo() {
    Path dir = Distribution.dir();

    assertThat(dir.resolve("bin/caldera")).isRegularFile().isExecutable();
    assertThat(dir.resolve("conf/scheduler.conf")).isRegularFile();
    assertThat(dir.resolve("scenarios/demo.yaml")).isRegularFile();
  }

  /**
   * Test machinery stays out of what ships, and the class data training out of every command's
   * class path: the kube bundle's test loop is in no jar, the training (and its API server) only in
   * lib/training/, which bin/caldera puts on the boot class path of {@code cds-training} alone.
   */
  @Test
  void noJarOfTheDistribution_holdsTestTooling_andTheTrainingIsOnlyInLibTraining()
      throws IOException {
    List<String> tooling = new ArrayList<>();
    List<Path> jars;
    try (Stream<Path> files = Files.walk(Distribution.dir())) {
      jars = files.filter(f -> f.toString().endsWith(".jar")).toList();
    }
    assertThat(jars).isNotEmpty();
    Path training = Distribution.dir().resolve("lib/training");
    for (Path jar : jars) {
      boolean trainingJar = jar.startsWith(training);
      try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
        zip.stream()
            .map(java.util.zip.ZipEntry::getName)
            .filter(
                n ->
                    n.endsWith("/KubeRunner.class")
                        || (!trainingJar
                            && (n.startsWith("dev/caldera/cdstraining/")
                                || n.endsWith("/CdsTrainingCommand.class")
                                || n.endsWith("/TrainingApiServer.class"))))
            .forEach(n -> tooling.add(Distribution.dir().relativize(jar) + "!" + n));
      }
    }
    assertThat(tooling).isEmpty();
    assertThat(Distribution.cdsTrainingJar()).isRegularFile();
  }

  @Test
  void lib_holdsTheRuntimeAndEveryBundleAndLibrary() throws IOException {
    List<String> jars;
    try (Stream<Path> files = Files.list(Distribution.dir().resolve("lib"))) {
      jars = files.map(p -> p.getFileName().toString()).sorted().toList();
    }

    for (String prefix :
        List.of(
            "caldera-runtime-",
            "caldera-api-",
            "caldera-api-support-",
            "caldera-framework-",
            "caldera-admission-",
            "caldera-sim-",
            "caldera-plugin-priority-",
            "caldera-plugin-gang-",
            "caldera-plugin-conformance-",
            "caldera-plugin-drf-",
            "caldera-plugin-proportion-",
            "caldera-plugin-predicates-",
            "caldera-plugin-nodeorder-",
            "caldera-plugin-binpack-",
            "caldera-plugin-sla-",
            "caldera-plugin-capacity-",
            "caldera-plugin-capacity-card-",
            "caldera-plugin-overcommit-",
            "caldera-plugin-pdb-",
            "caldera-plugin-cdp-",
            "caldera-plugin-nodegroup-",
            "caldera-plugin-usage-",
            "caldera-plugin-resourcequota-",
            "caldera-plugin-task-topology-",
            "caldera-plugin-extender-",
            "caldera-plugin-resource-strategy-fit-",
            "caldera-plugin-policy-",
            "caldera-dsl-",
            "antlr4-runtime-",
            "picocli-",
            "jackson-databind-",
            "jackson-dataformat-yaml-")) {
      assertThat(jars).as("lib/ jars").anyMatch(j -> j.startsWith(prefix) && j.endsWith(".jar"));
    }
    assertThat(jars).as("the test kit is for tests only").noneMatch(j -> j.contains("testkit"));
  }

  /**
   * Declarative Services looks up Configuration Admin on a plugin bundle's behalf for components
   * that may take a configuration, and SCR 2.2.18 keeps one such use after the bundle is gone
   * (about 10 KB per plugin swap): plugins take their arguments from the scheduler conf instead.
   */
  @Test
  void everyPluginComponent_ignoresConfigurationAdmin() throws IOException {
    List<Path> plugins;
    try (Stream<Path> files = Files.list(Distribution.dir().resolve("deploy"))) {
      plugins = files.filter(f -> f.toString().endsWith(".jar")).sorted().toList();
    }
    assertThat(plugins).hasSizeGreaterThan(10);
    for (Path jar : plugins) {
      try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
        List<String> components =
            zip.stream()
                .filter(e -> e.getName().startsWith("OSGI-INF/") && e.getName().endsWith(".xml"))
                .map(
                    e -> {
                      try (var in = zip.getInputStream(e)) {
                        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                      } catch (IOException ex) {
                        throw new java.io.UncheckedIOException(ex);
                      }
                    })
                .toList();
        assertThat(components).as("components of %s", jar.getFileName()).isNotEmpty();
        assertThat(components)
            .as("components of %s", jar.getFileName())
            .allSatisfy(xml -> assertThat(xml).contains("configuration-policy=\"ignore\""));
      }
    }
  }

  /** The classes {@code bin/caldera --version} loaded, as the JVM's class+load log names them. */
  private static List<String> classesLoaded(Path dir, Map<String, String> env, Path log)
      throws Exception {
    Map<String, String> all = new java.util.HashMap<>(env);
    all.put("JAVA_OPTS", "-Xlog:class+load=info:file=" + log);
    Run run = launchIn(dir, all, "--version");
    assertThat(run.code()).as(run.output()).isZero();
    assertThat(run.output()).as("stdout and stderr").startsWith("caldera ").doesNotContain("cds");
    return Files.readAllLines(log);
  }

  private static final String FROM_THE_ARCHIVE =
      fromTheArchive("dev.caldera.runtime.CalderaCommand");

  /** How {@code -Xlog:class+load} ends the line of a class the JVM mapped from the archive. */
  private static String fromTheArchive(String className) {
    return className + " source: shared objects file (top)";
  }

  @Test
  void classDataSharingArchive_isShippedAndUsedByTheLauncher(@TempDir Path tmp) throws Exception {
    Path archive = Distribution.dir().resolve("lib/caldera.jsa");
    assertThat(archive).isRegularFile();
    assertThat(Files.size(archive)).isGreaterThan(1_000_000);

    List<String> loaded = classesLoaded(Distribution.dir(), Map.of(), tmp.resolve("with.log"));
    List<String> withoutCds =
        classesLoaded(Distribution.dir(), Map.of("CALDERA_CDS", "off"), tmp.resolve("off.log"));

    assertThat(loaded).anyMatch(l -> l.endsWith(FROM_THE_ARCHIVE));
    assertThat(withoutCds).noneMatch(l -> l.endsWith(FROM_THE_ARCHIVE));
  }

  /**
   * The training also runs {@code caldera run} (against a loopback API server): the archive then
   * holds classes that Felix's bundle class loaders define, and a run maps them, an embedded run
   * too. Here a class of the framework bundle, defined by its bundle class loader in an embedded
   * run.
   */
  @Test
  void run_mapsClassesOfTheBundlesFromTheArchive(@TempDir Path tmp) throws Exception {
    Path log = tmp.resolve("run.log");
    Run run =
        launchIn(
            Distribution.dir(),
            Map.of("JAVA_OPTS", "-Xlog:class+load=info:file=" + log),
            "run",
            "--duration",
            "1s",
            "--admin-address",
            "off",
            "--status-interval",
            "0",
            "--log",
            tmp.resolve("caldera.log").toString());
    assertThat(run.code()).as(run.output()).isZero();
    List<String> loaded = Files.readAllLines(log);
    assertThat(loaded)
        .anyMatch(
            l ->
                l.endsWith(
                    fromTheArchive("dev.caldera.framework.internal.osgi.SchedulingLoopComponent")));
  }

  /**
   * The archive holds what a start against a real API server loads (docs/performance.md, class data
   * for a start against a real cluster): TLS with a certificate path to an authority, HTTP/2, the
   * readers of watch events, the fabric8 builders that a start only loads (a Java 17 archive keeps
   * a bundle's class only if the training linked it), the admin API's JVM metrics; and one copy of
   * each bundle class, which a start can match.
   */
  @Test
  void archive_holdsWhatAStartAgainstARealApiServerLoads_andOneCopyOfEachBundleClass()
      throws Exception {
    Run print =
        launchIn(
            Distribution.dir(), Map.of("JAVA_OPTS", "-XX:+PrintSharedArchiveAndExit"), "--version");
    assertThat(print.code()).as(print.output()).isZero();
    String dynamic = print.output().substring(print.output().indexOf("Dynamic archive name:"));
    assertThat(dynamic)
        .contains(
            " sun.security.ssl.SSLEngineImpl boot_loader",
            " sun.security.provider.certpath.PKIXCertPathValidator boot_loader",
            " jdk.internal.net.http.hpack.Decoder platform_loader",
            " io.fabric8.kubernetes.api.model.WatchEvent unregistered_loader",
            " io.fabric8.kubernetes.api.model.PodBuilder unregistered_loader",
            " io.prometheus.metrics.instrumentation.jvm.JvmMemoryMetrics unregistered_loader");
    List<String> bundleClasses =
        dynamic
            .lines()
            .filter(l -> l.endsWith(" unregistered_loader"))
            .map(l -> l.strip().split(" ")[1])
            .toList();
    assertThat(bundleClasses).isNotEmpty().doesNotHaveDuplicates();
  }

  /**
   * A copy of the distribution elsewhere (the archive names the jars by absolute path) or an
   * archive of another JVM: the launcher starts without it and says nothing; {@code caldera
   * cds-training}, with the copy's own training jar, makes one for the copy that the copy's
   * commands then use.
   */
  @Test
  void anArchiveThatDoesNotMatch_isIgnoredSilently_andCdsTrainingRemakesIt(@TempDir Path tmp)
      throws Exception {
    Path copy = tmp.resolve("caldera-copy");
    // All of it: the training runs caldera run, which needs the bundles.
    for (String part :
        List.of("bin", "lib", "bundles", "deploy", "scenarios", "policies", "conf")) {
      copyTree(Distribution.dir().resolve(part), copy.resolve(part));
    }

    List<String> moved = classesLoaded(copy, Map.of(), tmp.resolve("moved.log"));
    assertThat(moved).noneMatch(l -> l.endsWith(FROM_THE_ARCHIVE));

    Files.writeString(copy.resolve("lib/caldera.jsa"), "not an archive");
    List<String> garbage = classesLoaded(copy, Map.of(), tmp.resolve("garbage.log"));
    assertThat(garbage).noneMatch(l -> l.endsWith(FROM_THE_ARCHIVE));

    Run training = launchIn(copy, Map.of(), "cds-training");
    assertThat(training.code()).as(training.output()).isZero();
    assertThat(training.output()).contains("wrote " + copy.resolve("lib/caldera.jsa"));
    List<String> trained = classesLoaded(copy, Map.of(), tmp.resolve("trained.log"));
    assertThat(trained).anyMatch(l -> l.endsWith(FROM_THE_ARCHIVE));
  }

  /**
   * {@code run} starts with the full tiered JIT, every other command on the first tier only; a tier
   * option in JAVA_OPTS wins (docs/performance.md, "The JIT compiler").
   */
  @Test
  void launcher_startsRunWithTheFullJit_andShortCommandsOnTheFirstTier() throws Exception {
    for (String command : List.of("run", "bench", "simulate", "policy")) {
      Run run =
          launchIn(
              Distribution.dir(), Map.of("JAVA_OPTS", "-XX:+PrintFlagsFinal"), command, "--help");
      assertThat(run.code()).as(run.output()).isZero();
      assertThat(tieredStopAtLevel(run.output()))
          .as(command)
          .isEqualTo(command.equals("run") ? "4" : "1");
    }

    Run firstTier =
        launchIn(
            Distribution.dir(),
            Map.of("JAVA_OPTS", "-XX:+PrintFlagsFinal -XX:TieredStopAtLevel=1"),
            "run",
            "--help");
    assertThat(firstTier.code()).as(firstTier.output()).isZero();
    assertThat(tieredStopAtLevel(firstTier.output())).isEqualTo("1");
  }

  private static String tieredStopAtLevel(String printFlagsFinal) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("intx TieredStopAtLevel\\s+=\\s*(\\d+)")
            .matcher(printFlagsFinal);
    assertThat(m.find()).as("TieredStopAtLevel in%n%s", printFlagsFinal).isTrue();
    return m.group(1);
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  @Test
  void launcher_printsTheVersion() throws Exception {
    Run run = launch("--version");

    assertThat(run.code()).as(run.output()).isZero();
    assertThat(run.output()).startsWith("caldera ");
  }

  @Test
  void launcher_reportsAMissingFileAsAUsageError() throws Exception {
    Run run = launch("simulate", "no-such-scenario.yaml");

    assertThat(run.code()).as(run.output()).isEqualTo(2);
    assertThat(run.output()).contains("No such file or directory: no-such-scenario.yaml");
  }

  @Test
  void launcher_checksTheDemo() throws Exception {
    Run run = launch("simulate", "--check", "scenarios/demo.yaml");

    assertThat(run.code()).as(run.output()).isZero();
    assertThat(run.output().lines()).last().isEqualTo("1 passed, 0 failed");
  }
}
