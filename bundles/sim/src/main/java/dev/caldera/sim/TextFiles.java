package dev.caldera.sim;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads the text files the commands are given (scenarios, snapshots, manifests, confs, policies):
 * regular files only, up to a size checked before reading, as UTF-8. A device ({@code /dev/zero})
 * would fill the heap and a named pipe would wait for a writer for ever.
 */
public final class TextFiles {

  /**
   * The largest scenario, snapshot or manifest file read: a snapshot of 10,000 nodes and 100,000
   * pods is about 50 MB. The YAML reader's limit of characters in one text is the same.
   */
  public static final int MAX_SCENARIO_BYTES = 256 * 1024 * 1024;

  /** Why a file was not read: not a regular file, or too large. */
  public static final class NotReadException extends IOException {
    private static final long serialVersionUID = 1L;

    NotReadException(String message) {
      super(message);
    }
  }

  private TextFiles() {}

  /**
   * The file's text.
   *
   * @throws NotReadException when it is not a regular file or has more than {@code maxBytes}
   * @throws java.nio.charset.CharacterCodingException when it is not UTF-8
   * @throws IOException when it cannot be read
   */
  public static String read(Path file, long maxBytes) throws IOException {
    BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
    if (!attributes.isRegularFile()) {
      throw new NotReadException(
          (attributes.isDirectory() ? "a directory" : "not a regular file (a device or a pipe?)")
              + ": only regular files are read");
    }
    if (attributes.size() > maxBytes) {
      throw tooLarge(attributes.size(), maxBytes);
    }
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes((int) Math.min(maxBytes + 1, Integer.MAX_VALUE - 16));
    }
    if (bytes.length > maxBytes) {
      throw tooLarge(bytes.length, maxBytes);
    }
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)
        .decode(ByteBuffer.wrap(bytes))
        .toString();
  }

  private static NotReadException tooLarge(long size, long maxBytes) {
    return new NotReadException("too large: " + size + " bytes, at most " + maxBytes + " are read");
  }
}
