package dev.caldera.admin.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A request path's segments, each percent-decoded exactly once (RFC 3986): {@code %2F} is a slash
 * inside a name, not a separator; {@code +} is a plus sign; {@code %25zz} is the name {@code %zz}.
 */
final class PathSegments {

  private PathSegments() {}

  /**
   * The segments of {@code rawPath} (as sent, still encoded) after its leading slash.
   *
   * @throws AdminException 400 naming the segment when a {@code %} is not followed by two hex
   *     digits or the decoded bytes are not UTF-8
   */
  static List<String> decode(String rawPath) throws AdminException {
    String path = rawPath.startsWith("/") ? rawPath.substring(1) : rawPath;
    List<String> out = new ArrayList<>();
    for (String segment : path.split("/", -1)) {
      out.add(segment(segment));
    }
    return out;
  }

  /** One segment, decoded once. */
  static String segment(String raw) throws AdminException {
    if (raw.indexOf('%') < 0) {
      return raw;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c != '%') {
        bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
        continue;
      }
      int hi = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
      int lo = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 2), 16) : -1;
      if (hi < 0 || lo < 0) {
        throw new AdminException(
            400,
            "path segment \""
                + raw
                + "\": '%' at "
                + i
                + " is not followed by two hex digits (write a literal % as %25)");
      }
      bytes.write(hi * 16 + lo);
      i += 2;
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      throw new AdminException(
          400, "path segment \"" + raw + "\": the percent-encoded bytes are not UTF-8");
    }
  }
}
