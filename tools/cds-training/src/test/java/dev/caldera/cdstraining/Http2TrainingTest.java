package dev.caldera.cdstraining;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class Http2TrainingTest {

  @Test
  void theJdkClientSpeaksHttp2OverTlsToTheTrainingsServer_andEveryRequestAnswers200()
      throws Exception {
    assertThat(Http2Training.train(TrainingTls.create())).isEmpty();
  }
}
