package dev.caldera.runtime.image;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A command of an unpacked image, started as a container runtime starts it: new mount and PID
 * namespaces with /proc mounted (the JVM finds its libraries from /proc/self/exe) and the host's
 * /dev, then chroot into the image's root as the image's user, with the image's environment only.
 * The network is the host's. Needs root, unshare and chroot on a machine of the image's
 * architecture (amd64 here).
 */
final class ContainerRun {

  private ContainerRun() {}

  /** Why this machine cannot run the amd64 image this way, or null when it can. */
  static String unavailable() {
    if (!System.getProperty("os.arch").equals("amd64")) {
      return "not an amd64 machine";
    }
    if (!"root".equals(System.getProperty("user.name"))) {
      return "unshare and chroot need root";
    }
    if (!succeeds(List.of("unshare", "--mount", "--pid", "--fork", "true"))) {
      return "unshare --mount --pid does not work here";
    }
    return null;
  }

  /**
   * {@code image}'s layers unpacked into {@code dir}, with the mount points {@link #builder} needs
   * (/proc and /dev): the root file system a command of the image runs in.
   */
  static Path unpack(OciImageTarball image, Path dir) throws IOException {
    Path root = Files.createDirectories(dir);
    image.unpackLayers(root);
    Files.createDirectories(root.resolve("proc"));
    Files.createDirectories(root.resolve("dev"));
    return root;
  }

  /**
   * {@code command} in {@code root} as user 10001 with {@code env} as its whole environment (the
   * host's PATH is appended so that sh and chroot are found before the chroot).
   */
  static ProcessBuilder builder(Path root, Map<String, String> env, List<String> command) {
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
    line.addAll(command);
    ProcessBuilder pb = new ProcessBuilder(line).redirectErrorStream(true);
    Map<String, String> environment = pb.environment();
    String hostPath = environment.get("PATH");
    environment.clear();
    environment.putAll(env);
    environment.put("PATH", env.getOrDefault("PATH", "") + ":" + hostPath);
    return pb;
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
