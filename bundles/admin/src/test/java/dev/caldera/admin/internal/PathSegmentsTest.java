package dev.caldera.admin.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PathSegmentsTest {

  @Test
  void eachSegmentIsDecodedOnce_plusStaysPlus_andAnEncodedSlashStaysInItsSegment()
      throws Exception {
    assertThat(PathSegments.decode("/api/jobs/ml/a%2Fb+c%25zz%C3%A9"))
        .containsExactly("api", "jobs", "ml", "a/b+c%zzé");
    assertThat(PathSegments.decode("/healthz")).containsExactly("healthz");
    assertThat(PathSegments.decode("/")).containsExactly("");
  }

  @Test
  void aPercentWithoutTwoHexDigits_orBytesThatAreNotUtf8_areA400NamingTheSegment() {
    assertThatThrownBy(() -> PathSegments.segment("%zz"))
        .isInstanceOf(AdminException.class)
        .hasMessage(
            "path segment \"%zz\": '%' at 0 is not followed by two hex digits (write a literal %"
                + " as %25)")
        .satisfies(e -> assertThat(((AdminException) e).status()).isEqualTo(400));
    assertThatThrownBy(() -> PathSegments.segment("ab%4")).hasMessageContaining("'%' at 2");
    assertThatThrownBy(() -> PathSegments.segment("%FF"))
        .hasMessage("path segment \"%FF\": the percent-encoded bytes are not UTF-8");
  }
}
