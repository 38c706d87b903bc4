package dev.caldera.framework.loop;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TerminalTextTest {

  @Test
  void escapeSequencesAndBidiControls_becomeVisibleEscapes() {
    assertThat(TerminalText.escape("gpu\u001b[2J\u001b]0;pwned\u0007-x"))
        .isEqualTo("gpu\\u001B[2J\\u001B]0;pwned\\u0007-x");
    assertThat(TerminalText.escape("a\u202Eexe.txt\u2066b\u2069\u200F\u061C"))
        .isEqualTo("a\\u202Eexe.txt\\u2066b\\u2069\\u200F\\u061C");
    assertThat(TerminalText.escape("c1\u009b31m del\u007f")).isEqualTo("c1\\u009B31m del\\u007F");
    assertThat(TerminalText.escape("a\tb\nc\rd")).isEqualTo("a\\tb\\nc\\rd");
  }

  @Test
  void ordinaryTextIsKept_asTheSameString() {
    String text = "NVIDIA-GeForce-RTX-4090 <16> é 日本 עברית العربية ‐ \u00A0";
    assertThat(TerminalText.escape(text)).isSameAs(text);
    assertThat(TerminalText.escape(null)).isNull();
  }
}
