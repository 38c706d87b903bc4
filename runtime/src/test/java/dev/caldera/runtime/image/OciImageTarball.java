package dev.caldera.runtime.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/**
 * An OCI image layout tarball (oci-layout, index.json, blobs/sha256/...) as a registry or {@code
 * docker load} would read it: the single image of its index, its config and its layers' files.
 */
final class OciImageTarball {

  static final String MANIFEST_TYPE = "application/vnd.oci.image.manifest.v1+json";
  static final String LAYER_TYPE = "application/vnd.oci.image.layer.v1.tar+gzip";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** How much of each file's content is kept: a small file whole, an ELF header. */
  static final int HEAD_BYTES = 4096;

  /** One file, directory or link in a layer, with the first bytes of a regular file's content. */
  record Entry(
      String path, int mode, long size, boolean directory, boolean link, int uid, byte[] head) {}

  final Path dir;
  final JsonNode index;
  final JsonNode manifest;
  final JsonNode config;

  /** The layers' digests, bottom first. */
  final List<String> layerDigests = new ArrayList<>();

  /** Every path of every layer, the upper layer's entry winning. */
  final Map<String, Entry> files = new LinkedHashMap<>();

  private OciImageTarball(Path dir) throws IOException {
    this.dir = dir;
    index = JSON.readTree(dir.resolve("index.json").toFile());
    manifest = JSON.readTree(blob(index.path("manifests").path(0)));
    config = JSON.readTree(blob(manifest.path("config")));
    for (JsonNode layer : manifest.path("layers")) {
      layerDigests.add(layer.path("digest").asText());
      try (TarArchiveInputStream tar = layerStream(layer.path("digest").asText())) {
        TarArchiveEntry e;
        while ((e = tar.getNextEntry()) != null) {
          byte[] head = e.isFile() ? tar.readNBytes(HEAD_BYTES) : new byte[0];
          String path = "/" + e.getName().replaceFirst("^\\./", "").replaceFirst("^/", "");
          path =
              path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
          files.put(
              path,
              new Entry(
                  path,
                  e.getMode() & 07777,
                  e.getSize(),
                  e.isDirectory(),
                  e.isSymbolicLink() || e.isLink(),
                  (int) e.getLongUserId(),
                  head));
        }
      }
    }
  }

  /** Unpacks {@code tarball} into {@code dir} and reads it. */
  static OciImageTarball open(Path tarball, Path dir) throws IOException {
    try (TarArchiveInputStream tar = new TarArchiveInputStream(Files.newInputStream(tarball))) {
      TarArchiveEntry e;
      while ((e = tar.getNextEntry()) != null) {
        Path target = dir.resolve(e.getName()).normalize();
        if (!target.startsWith(dir)) {
          throw new IOException("entry outside the tarball's root: " + e.getName());
        }
        if (e.isDirectory()) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    return new OciImageTarball(dir);
  }

  /**
   * The blob a descriptor names, after checking its size and its SHA-256 against the descriptor.
   */
  byte[] blob(JsonNode descriptor) throws IOException {
    String digest = descriptor.path("digest").asText();
    byte[] bytes = Files.readAllBytes(blobPath(digest));
    if (bytes.length != descriptor.path("size").asLong()) {
      throw new IOException(
          digest + ": " + bytes.length + " bytes, descriptor says " + descriptor.path("size"));
    }
    String actual = "sha256:" + HexFormat.of().formatHex(sha256().digest(bytes));
    if (!actual.equals(digest)) {
      throw new IOException("blob " + digest + " has the digest " + actual);
    }
    return bytes;
  }

  /** The SHA-256 of a layer blob as stored, for comparing with its descriptor. */
  String storedDigest(String digest) throws IOException {
    MessageDigest sha = sha256();
    try (InputStream in = new DigestInputStream(Files.newInputStream(blobPath(digest)), sha)) {
      in.transferTo(java.io.OutputStream.nullOutputStream());
    }
    return "sha256:" + HexFormat.of().formatHex(sha.digest());
  }

  /** The image's environment ({@code config.Env}), as a container runtime gives it. */
  Map<String, String> environment() {
    Map<String, String> env = new LinkedHashMap<>();
    for (JsonNode entry : config.path("config").path("Env")) {
      String e = entry.asText();
      int eq = e.indexOf('=');
      env.put(e.substring(0, eq), e.substring(eq + 1));
    }
    return env;
  }

  /** The config's {@code diff_id}s: the SHA-256 of each layer uncompressed. */
  String uncompressedDigest(String digest) throws IOException {
    MessageDigest sha = sha256();
    try (InputStream in =
        new DigestInputStream(
            new GzipCompressorInputStream(Files.newInputStream(blobPath(digest))), sha)) {
      in.transferTo(java.io.OutputStream.nullOutputStream());
    }
    return "sha256:" + HexFormat.of().formatHex(sha.digest());
  }

  long blobSize(String digest) throws IOException {
    return Files.size(blobPath(digest));
  }

  /**
   * Unpacks every layer, bottom first, into {@code root}, keeping the entries' modes and, as
   * container runtimes do, the files' modification times (the JVM checks them before it uses a
   * class data archive).
   */
  void unpackLayers(Path root) throws IOException {
    for (String digest : layerDigests) {
      try (TarArchiveInputStream tar = layerStream(digest)) {
        TarArchiveEntry e;
        while ((e = tar.getNextEntry()) != null) {
          Path target = root.resolve(e.getName().replaceFirst("^/", "")).normalize();
          if (!target.startsWith(root)) {
            throw new IOException("layer entry outside the root: " + e.getName());
          }
          if (e.isDirectory()) {
            Files.createDirectories(target);
          } else if (e.isSymbolicLink()) {
            Files.createDirectories(target.getParent());
            Files.deleteIfExists(target);
            Files.createSymbolicLink(target, Path.of(e.getLinkName()));
            continue;
          } else {
            Files.createDirectories(target.getParent());
            Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
            Files.setLastModifiedTime(target, FileTime.from(e.getModTime().toInstant()));
          }
          Files.setPosixFilePermissions(target, permissions(e.getMode()));
        }
      }
    }
  }

  private TarArchiveInputStream layerStream(String digest) throws IOException {
    return new TarArchiveInputStream(
        new GzipCompressorInputStream(Files.newInputStream(blobPath(digest))));
  }

  private Path blobPath(String digest) {
    if (!digest.matches("sha256:[0-9a-f]{64}")) {
      throw new IllegalArgumentException("not a sha256 digest: " + digest);
    }
    return dir.resolve("blobs/sha256").resolve(digest.substring("sha256:".length()));
  }

  private static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] order = {
      PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_READ,
      PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_READ,
      PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
          PosixFilePermission.OWNER_READ
    };
    for (int bit = 0; bit < order.length; bit++) {
      if ((mode & (1 << bit)) != 0) {
        set.add(order[bit]);
      }
    }
    return set;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
