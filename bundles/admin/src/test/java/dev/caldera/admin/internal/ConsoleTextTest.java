package dev.caldera.admin.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The console draws names with bidirectional formatting or control characters as visible escapes:
 * its script passes every text from the API through {@code visible()}, whose character class is
 * checked here (as a Java pattern: the same syntax for a class of {@code \\uXXXX} ranges).
 */
class ConsoleTextTest {

  private static String script() throws IOException {
    try (InputStream in =
        ConsoleTextTest.class.getResourceAsStream("/dev/caldera/admin/console/console.js")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void theUnsafeClass_coversBidiControlsC0C1AndDel_butNotLinesTabsOrLetters() throws Exception {
    Matcher m = Pattern.compile("const UNSAFE = /(\\[[^\\]]+\\])/g;").matcher(script());
    assertThat(m.find()).as("console.js declares UNSAFE").isTrue();
    Pattern unsafe = Pattern.compile(m.group(1));

    int[] bidi = {
      0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069
    };
    for (int c : bidi) {
      assertThat(unsafe.matcher(Character.toString(c)).matches()).as("U+%04X", c).isTrue();
    }
    for (int c = 0; c <= 0x9F; c++) {
      boolean control = c < 0x20 || c >= 0x7F;
      boolean kept = c == '\t' || c == '\n' || c == '\r';
      assertThat(unsafe.matcher(Character.toString(c)).matches())
          .as("U+%04X", c)
          .isEqualTo(control && !kept);
    }
    for (String ok : new String[] {"a", "é", "ا", "日", "\u00A0", "‐"}) {
      assertThat(unsafe.matcher(ok).matches()).as(ok).isFalse();
    }
  }

  @Test
  void everyTextAndAttributeFromTheApi_goesThroughVisible() throws Exception {
    String js = script();
    // One textContent assignment, in setText, which escapes; el() escapes attributes and children.
    assertThat(count(js, "textContent =")).isEqualTo(1);
    assertThat(js).contains("e.textContent = visible(v);");
    assertThat(js).contains("e.setAttribute(k, v === true ? '' : visible(v));");
    assertThat(js).contains("e.append(c instanceof Node ? c : visible(c));");
    assertThat(js).doesNotContain("innerText", ".nodeValue", "createTextNode(");
  }

  private static int count(String text, String what) {
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }
}
