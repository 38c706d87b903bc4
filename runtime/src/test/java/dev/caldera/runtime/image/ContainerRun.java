package dev.caldera.runtime.image;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * An unpacked image whose commands are started as a container runtime starts them: new mount and
 * PID namespaces with /proc mounted (the JVM finds its libraries from /proc/self/exe) and the
 * host's /dev, then chroot into the image's root as the image's user, with the image's environment
 * only. The network is the host's. Needs root, unshare and chroot; an image of another architecture
 * than the machine's runs under QEMU's user-mode emulator (Debian's qemu-user-static), copied into
 * the root and named before the command, as class-data-layer.sh runs it.
 */
final class ContainerRun {

  private final Path root;
  private final String emulator;

  private ContainerRun(Path root, String emulator) {
    this.root = root;
    this.emulator = emulator;
  }

  /** Why this machine cannot run an image of {@code arch} this way, or null when it can. */
  static String unavailable(String arch) {
    if (!"root".equals(System.getProperty("user.name"))) {
      return "unshare and chroot need root";
    }
    if (!succeeds(List.of("unshare", "--mount", "--pid", "--fork", "true"))) {
      return "unshare --mount --pid does not work here";
    }
    String emulator = emulatorFor(arch);
    if (emulator != null && hostEmulator(emulator) == null) {
      return "an "
          + arch
          + " image on an "
          + System.getProperty("os.arch")
          + " machine runs under "
          + emulator
          + ", which is not installed (Debian: qemu-user-static)";
    }
    return null;
  }

  /**
   * {@code image}'s layers unpacked into {@code dir}, with the mount points a run needs (/proc and
   * /dev) and the emulator when the image is of another architecture.
   */
  static ContainerRun unpack(OciImageTarball image, Path dir) throws IOException {
    Path root = Files.createDirectories(dir);
    image.unpackLayers(root);
    Files.createDirectories(root.resolve("proc"));
    Files.createDirectories(root.resolve("dev"));
    String emulator = emulatorFor(image.config.path("architecture").asText());
    if (emulator != null) {
      Path host = hostEmulator(emulator);
      if (host == null) {
        throw new IllegalStateException(emulator + " not found (Debian: qemu-user-static)");
      }
      Files.copy(host, root.resolve(emulator), StandardCopyOption.COPY_ATTRIBUTES);
    }
    return new ContainerRun(root, emulator);
  }

  /** The image's root file system. */
  Path root() {
    return root;
  }

  /** Whether commands run under an emulator (slower than the machine's own CPU). */
  boolean emulated() {
    return emulator != null;
  }

  /**
   * {@code command} in the image as user 10001 with {@code env} as its whole environment (the
   * host's PATH is appended so that sh and chroot are found before the chroot).
   */
  ProcessBuilder builder(Map<String, String> env, List<String> command) {
    List<String> line =
        new ArrayList<>(
            List.of(
                "unshare",
                "--mount",
                "--pid",
                "--fork",
                "--mount-proc=" + root.resolve("proc"),
                "sh",
                "-c",
                "mount --rbind /dev \"$0/dev\" && exec chroot --userspec=10001:10001 \"$0\" \"$@\"",
                root.toString()));
    if (emulator != null) {
      line.add("/" + emulator);
    }
    line.addAll(command);
    ProcessBuilder pb = new ProcessBuilder(line).redirectErrorStream(true);
    Map<String, String> environment = pb.environment();
    String hostPath = environment.get("PATH");
    environment.clear();
    environment.putAll(env);
    environment.put("PATH", env.getOrDefault("PATH", "") + ":" + hostPath);
    return pb;
  }

  /** The user-mode emulator an image of {@code arch} needs here, or null for the machine's own. */
  private static String emulatorFor(String arch) {
    String machine = System.getProperty("os.arch").replace("aarch64", "arm64");
    if (arch.equals(machine)) {
      return null;
    }
    return arch.equals("arm64") ? "qemu-aarch64-static" : "qemu-x86_64-static";
  }

  private static Path hostEmulator(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
      Path candidate = Path.of(dir, name);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  static boolean succeeds(List<String> command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
