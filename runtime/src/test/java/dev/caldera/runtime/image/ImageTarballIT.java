package dev.caldera.runtime.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The container image tarballs the build writes (runtime/target/caldera-image-ARCH.tar, profiles
 * image-amd64 and image-arm64): read as a registry or {@code docker load} would, and the amd64 one
 * run under chroot where this machine allows it. Skipped, saying why, when runtime/image/rootfs was
 * not built (runtime/image/build-rootfs.sh; .ci/run does it).
 */
class ImageTarballIT {

  private static final Path TARGET = Path.of("target");
  private static final Path DIST = TARGET.resolve("caldera");
  private static final Path ROOTFS = Path.of("image/rootfs");
  private static final String MAIN_CLASS = "dev.caldera.runtime.CalderaCommand";

  /** The entrypoint's JVM arguments file, written by image/class-data-layer.sh. */
  private static final String JVM_ARGS = "/opt/caldera/lib/image-java.args";

  private static final String APP_ARCHIVE = "/opt/caldera/lib/caldera.jsa";
  private static final String RUNTIME_ARCHIVE = "/opt/java/lib/server/classes.jsa";

  @TempDir Path work;

  private static OciImageTarball image(String arch, Path work) throws IOException {
    assumeTrue(
        Files.isExecutable(ROOTFS.resolve(arch).resolve("jre/bin/java")),
        "the linux/"
            + arch
            + " image was not built: runtime/image/rootfs/"
            + arch
            + " is missing (run runtime/image/build-rootfs.sh, which needs apt-get)");
    Path tarball = TARGET.resolve("caldera-image-" + arch + ".tar");
    assertThat(tarball).as("the image tarball the build writes").isRegularFile();
    return OciImageTarball.open(tarball, work);
  }

  @ParameterizedTest(name = "linux/{0}")
  @ValueSource(strings = {"amd64", "arm64"})
  void theTarballIsAnOciImageLayoutWithOneImageForItsPlatform(String arch) throws IOException {
    OciImageTarball image = image(arch, work);

    assertThat(Files.readString(image.dir.resolve("oci-layout")))
        .contains("\"imageLayoutVersion\"");
    assertThat(image.index.path("manifests")).hasSize(1);
    JsonNode descriptor = image.index.path("manifests").path(0);
    assertThat(descriptor.path("mediaType").asText()).isEqualTo(OciImageTarball.MANIFEST_TYPE);
    assertThat(descriptor.path("annotations").path("org.opencontainers.image.ref.name").asText())
        .startsWith("caldera:");
    assertThat(image.manifest.path("schemaVersion").asInt()).isEqualTo(2);
    assertThat(image.manifest.path("config").path("mediaType").asText())
        .isEqualTo("application/vnd.oci.image.config.v1+json");

    assertThat(image.config.path("os").asText()).isEqualTo("linux");
    assertThat(image.config.path("architecture").asText()).isEqualTo(arch);
    // Every layer blob is the size and digest its descriptor says, and the config's diff_ids are
    // the digests of the layers uncompressed, in order (what a registry and docker load check).
    JsonNode layers = image.manifest.path("layers");
    JsonNode diffIds = image.config.path("rootfs").path("diff_ids");
    assertThat(layers).hasSize(4);
    assertThat(diffIds).hasSize(4);
    for (int i = 0; i < layers.size(); i++) {
      JsonNode layer = layers.path(i);
      String digest = layer.path("digest").asText();
      assertThat(layer.path("mediaType").asText()).isEqualTo(OciImageTarball.LAYER_TYPE);
      assertThat(image.blobSize(digest)).isEqualTo(layer.path("size").asLong());
      assertThat(image.storedDigest(digest)).isEqualTo(digest);
      assertThat(image.uncompressedDigest(digest)).isEqualTo(diffIds.path(i).asText());
    }
  }

  @ParameterizedTest(name = "linux/{0}")
  @ValueSource(strings = {"amd64", "arm64"})
  void theEntrypointStartsCalderaAsANonRootUserWithAHeapShareOfTheMemoryLimit(String arch)
      throws IOException {
    JsonNode config = image(arch, work).config.path("config");

    assertThat(config.path("User").asText()).isEqualTo("10001:10001");
    assertThat(config.path("WorkingDir").asText()).isEqualTo("/opt/caldera");
    assertThat(strings(config.path("Entrypoint")))
        .containsExactly(
            "/opt/java/bin/java",
            "-XX:MaxRAMPercentage=75.0",
            "-XX:+UseG1GC",
            "-Dcaldera.home=/opt/caldera",
            "@" + JVM_ARGS,
            MAIN_CLASS);
    assertThat(strings(config.path("Cmd"))).containsExactly("run", "--admin-address=0.0.0.0:8080");
    assertThat(strings(config.path("Env")))
        .contains("JAVA_HOME=/opt/java", "LANG=C.UTF-8")
        .noneMatch(e -> e.startsWith("JDK_JAVA_OPTIONS="));
    assertThat(config.path("ExposedPorts").has("8080/tcp")).isTrue();
    assertThat(config.path("ExposedPorts").has("8081/tcp")).as("the probes").isTrue();
    assertThat(config.path("Labels").path("org.opencontainers.image.version").asText())
        .isNotBlank();
  }

  @ParameterizedTest(name = "linux/{0}")
  @ValueSource(strings = {"amd64", "arm64"})
  void theLayersHoldTheSystemLibrariesTheJavaRuntimeAndTheDistribution(String arch)
      throws IOException {
    OciImageTarball image = image(arch, work);
    Map<String, OciImageTarball.Entry> files = image.files;
    int machine = arch.equals("amd64") ? 0x3E : 0xB7; // ELF e_machine: x86-64, AArch64
    String loader =
        arch.equals("amd64") ? "/lib64/ld-linux-x86-64.so.2" : "/lib/ld-linux-aarch64.so.1";
    String triple = arch.equals("amd64") ? "x86_64-linux-gnu" : "aarch64-linux-gnu";

    // Binaries of the image's architecture, where its ELF interpreter and libraries are looked for.
    for (String binary :
        List.of(
            "/opt/java/bin/java",
            "/opt/java/lib/server/libjvm.so",
            loader,
            "/lib/" + triple + "/libc.so.6",
            "/lib/" + triple + "/libz.so.1",
            "/lib/" + triple + "/libgcc_s.so.1",
            "/usr/lib/" + triple + "/libstdc++.so.6")) {
      assertThat(files).as(binary).containsKey(binary);
      OciImageTarball.Entry entry = files.get(binary);
      assertThat(entry.link()).as(binary + " is a file, not a link").isFalse();
      assertThat(elfMachine(entry.head())).as(binary + ": ELF machine").isEqualTo(machine);
    }
    assertThat(files.get("/opt/java/bin/java").mode()).isEqualTo(0755);
    assertThat(files.get(loader).mode()).isEqualTo(0755);
    assertThat(files).containsKeys("/opt/java/lib/modules", "/opt/java/lib/security/cacerts");

    // The distribution under /opt/caldera: every file, the same size, the launchers executable.
    Map<String, Long> dist = distribution();
    assertThat(dist).containsKeys("/opt/caldera/bin/caldera", "/opt/caldera/conf/scheduler.conf");
    assertThat(dist.keySet()).anyMatch(p -> p.startsWith("/opt/caldera/deploy/caldera-plugin-"));
    dist.forEach(
        (path, size) -> {
          assertThat(files).as(path).containsKey(path);
          assertThat(files.get(path).size()).as(path).isEqualTo(size);
        });
    assertThat(files.get("/opt/caldera/bin/caldera").mode()).isEqualTo(0755);
    assertThat(files.get("/opt/caldera/lib").directory()).isTrue();

    // Nothing from Jib's default layout (/app), and the three layers in this order: system, Java
    // runtime, distribution (the last changes with every build, the first two rarely).
    assertThat(files.keySet()).noneMatch(p -> p.equals("/app") || p.startsWith("/app/"));
    assertThat(files).doesNotContainKey("/bin/sh");

    // The user the entrypoint runs as, and the only places it writes: PluginBundle downloads,
    // the default log and the JVM's temporary files (Felix's cache).
    assertThat(new String(files.get("/etc/passwd").head(), StandardCharsets.UTF_8))
        .contains("caldera:x:10001:10001:");
    for (String writable : List.of("/opt/caldera/deploy", "/opt/caldera/log", "/tmp")) {
      assertThat(files.get(writable).directory()).as(writable).isTrue();
      assertThat(files.get(writable).mode()).as(writable).isEqualTo(0777);
    }
    assertThat(files.get("/opt/caldera/conf").mode()).isEqualTo(0755);
    assertThat(files.values()).allMatch(e -> e.uid() == 0, "owned by root");
  }

  /**
   * The last layer: the arguments file names every jar of the distribution's lib/ in C order, under
   * /opt/caldera, as bin/caldera does (a class data archive is only used with the class path it was
   * made with, and a wildcard would leave the order to the container's file system); the archive
   * options are there exactly when the archives are.
   */
  @ParameterizedTest(name = "linux/{0}")
  @ValueSource(strings = {"amd64", "arm64"})
  void theClassDataLayerNamesTheClassPathInAFixedOrder(String arch) throws IOException {
    Map<String, OciImageTarball.Entry> files = image(arch, work).files;
    assertThat(files).containsKey(JVM_ARGS);
    List<String> args =
        List.of(
            new String(files.get(JVM_ARGS).head(), StandardCharsets.UTF_8).trim().split("\\s+"));

    List<String> jars = new ArrayList<>();
    try (Stream<Path> lib = Files.list(DIST.resolve("lib"))) {
      lib.map(p -> p.getFileName().toString())
          .filter(name -> name.endsWith(".jar"))
          .sorted()
          .forEach(name -> jars.add("/opt/caldera/lib/" + name));
    }
    assertThat(args.get(0)).isEqualTo("-cp");
    assertThat(args.get(1).split(":")).containsExactlyElementsOf(jars);
    boolean archived = files.containsKey(APP_ARCHIVE);
    assertThat(files.containsKey(RUNTIME_ARCHIVE)).as(RUNTIME_ARCHIVE).isEqualTo(archived);
    if (archived) {
      assertThat(args.subList(2, args.size()))
          .containsExactly(
              "-XX:SharedArchiveFile=" + APP_ARCHIVE,
              "-Xshare:auto",
              "-Xlog:cds=off",
              "-Xlog:cds+dynamic=off");
    } else {
      assertThat(args).hasSize(2);
    }
  }

  /** The Deployment's securityContext names the image's user, so runAsNonRoot holds. */
  @Test
  void theDeploymentRunsTheImageAsItsUser() throws IOException {
    JsonNode config = image("amd64", work).config.path("config");
    JsonNode pod =
        new ObjectMapper(new YAMLFactory())
            .readTree(Path.of("deploy/base/deployment.yaml").toFile())
            .path("spec")
            .path("template")
            .path("spec");
    JsonNode security = pod.path("securityContext");
    assertThat(security.path("runAsNonRoot").asBoolean()).isTrue();
    assertThat(security.path("runAsUser").asInt() + ":" + security.path("runAsGroup").asInt())
        .isEqualTo(config.path("User").asText());
    assertThat(pod.path("containers").path(0).path("ports").path(0).path("containerPort").asInt())
        .isEqualTo(8080);
    assertThat(config.path("ExposedPorts").has("8080/tcp")).isTrue();
  }

  /**
   * The image's entrypoint, run as the image's user in its own root file system, as a container
   * runtime would start it: new mount and PID namespaces with /proc mounted (the JVM finds its
   * libraries from /proc/self/exe) and the host's /dev, then chroot. Shows that glibc, the Java
   * runtime and the distribution fit together, and that the JVM takes the class data archives the
   * build made. Needs root, unshare and chroot, and for the image of the other architecture QEMU's
   * user-mode emulator (.ci/run installs it); skipped otherwise, saying which.
   */
  @ParameterizedTest
  @ValueSource(strings = {"amd64", "arm64"})
  void theImageRunsInItsOwnRootFileSystem(String arch) throws Exception {
    String unavailable = ContainerRun.unavailable(arch);
    assumeTrue(unavailable == null, unavailable);
    OciImageTarball image = image(arch, work.resolve("tarball"));
    ContainerRun container = ContainerRun.unpack(image, work.resolve("root"));
    Path root = container.root();
    List<String> entrypoint = strings(image.config.path("config").path("Entrypoint"));

    Result version = inImage(container, image, List.of("/opt/java/bin/java", "-version"));
    assertThat(version.exit).as(version.output).isZero();
    assertThat(version.output).contains("openjdk version \"17");

    // The image runs the scheduler with the JVM's full tiered JIT, as bin/caldera starts run.
    Result flags =
        inImage(
            container, image, List.of("/opt/java/bin/java", "-XX:+PrintFlagsFinal", "-version"));
    assertThat(flags.exit).as(flags.output).isZero();
    assertThat(flags.output).containsPattern("intx TieredStopAtLevel +=? *4 ");

    List<String> help = new ArrayList<>(entrypoint);
    help.add("--help");
    Result usage = inImage(container, image, help);
    assertThat(usage.exit).as(usage.output).isZero();
    assertThat(usage.output).contains("Usage: caldera", "run", "simulate");

    // The default command on the embedded demo cluster for a few seconds: Felix starts (its cache
    // in /tmp), the plugins load from deploy/, sessions run and the log is written, as user 10001.
    List<String> run = new ArrayList<>(entrypoint);
    run.addAll(
        List.of("run", "--duration", "8s", "--status-interval", "2s", "--admin-address", "off"));
    // With the JVM's class loading logged: most classes,
    // Felix's bundles' among them, come from the class data archives the build made in the image.
    Result scheduler =
        inImage(
            container,
            image,
            run,
            Map.of("JDK_JAVA_OPTIONS", "-Xlog:class+load=info:file=/tmp/class-load.log"));
    assertThat(scheduler.exit).as(scheduler.output).isZero();
    assertThat(scheduler.output).contains("status: sessions");
    assertThat(root.resolve("opt/caldera/log/caldera.log")).isNotEmptyFile();

    if (Boolean.getBoolean("caldera.cds.skip")) {
      return; // the build made no archives (-Dcaldera.cds.skip=true)
    }
    List<String> loaded = Files.readAllLines(root.resolve("tmp/class-load.log"));
    long fromRuntimeArchive =
        loaded.stream().filter(l -> l.endsWith("shared objects file")).count();
    List<String> fromAppArchive =
        loaded.stream().filter(l -> l.endsWith("shared objects file (top)")).toList();
    assertThat(fromRuntimeArchive).as("classes of the Java runtime's archive").isGreaterThan(400);
    assertThat(fromRuntimeArchive + fromAppArchive.size())
        .as("classes of the two archives, of %d loaded", loaded.size())
        .isGreaterThan(loaded.size() / 2);
    assertThat(fromAppArchive)
        .as("a plugin's class, defined by Felix's class loader of a bundle in deploy/")
        .anyMatch(l -> l.contains(" dev.caldera.plugins."))
        .as("the launcher's main class, from lib/")
        .anyMatch(l -> l.contains(" dev.caldera.runtime.CalderaCommand "));
  }

  private record Result(int exit, String output) {}

  private static Result inImage(ContainerRun container, OciImageTarball image, List<String> command)
      throws IOException, InterruptedException {
    return inImage(container, image, command, Map.of());
  }

  private static Result inImage(
      ContainerRun container,
      OciImageTarball image,
      List<String> command,
      Map<String, String> envOverrides)
      throws IOException, InterruptedException {
    Map<String, String> env = new TreeMap<>(image.environment());
    env.putAll(envOverrides);
    Process p = container.builder(env, command).start();
    p.getOutputStream().close();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("finished within 60 s").isTrue();
    return new Result(p.exitValue(), output);
  }

  private static Map<String, Long> distribution() throws IOException {
    Map<String, Long> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(DIST)) {
      for (Path p : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
        String relative = DIST.relativize(p).toString().replace('\\', '/');
        if (relative.equals("lib/caldera.jsa") || relative.startsWith("log/")) {
          // Left out of the image: the archive is tied to the build machine's class path, and
          // logs of local runs stay local.
          continue;
        }
        files.put(
            "/opt/caldera/" + DIST.relativize(p).toString().replace('\\', '/'), Files.size(p));
      }
    }
    return files;
  }

  private static int elfMachine(byte[] head) {
    assertThat(head).hasSizeGreaterThanOrEqualTo(20);
    assertThat(new String(head, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("ELF");
    return (head[18] & 0xFF) | (head[19] & 0xFF) << 8;
  }

  private static List<String> strings(JsonNode array) {
    List<String> list = new ArrayList<>();
    array.forEach(n -> list.add(n.asText()));
    return list;
  }
}
