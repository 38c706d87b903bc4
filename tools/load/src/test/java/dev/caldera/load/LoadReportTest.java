package dev.caldera.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class LoadReportTest {

  private static LoadReport stream() {
    return new LoadReport(
        "stream",
        "gangs of 10 pods (cpu 100m, memory 64Mi) in queue default, 100 pods/s for 60s,"
            + " schedulerName volcano",
        "https://127.0.0.1:6443/",
        "caldera-load-ab12cd",
        "200 fake nodes labelled caldera-load=ab12cd",
        "launched: bin/caldera run --kubeconfig sa.kubeconfig",
        "the start of the stream",
        6_000,
        6_000,
        0,
        null,
        100.0,
        59.99,
        100.0,
        5_990,
        10,
        0,
        30,
        99.5,
        new LoadReport.Latency(5_990, 0.41234, 0.8, 0.99, 1.2),
        0.31,
        null,
        null,
        IntStream.rangeClosed(1, 21).boxed().toList(),
        12.345,
        60.2,
        2.0609,
        null,
        "/tmp/caldera-load-scheduler-1.log",
        List.of());
  }

  private static String table(LoadReport r) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    r.printTable(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aStream_printsOneFigureALine() {
    assertThat(table(stream()))
        .isEqualTo(
            """
            caldera load: gangs of 10 pods (cpu 100m, memory 64Mi) in queue default, 100 pods/s \
            for 60s, schedulerName volcano
            API server:        https://127.0.0.1:6443/, namespace caldera-load-ab12cd
            nodes:             200 fake nodes labelled caldera-load=ab12cd
            scheduler:         launched: bin/caldera run --kubeconfig sa.kubeconfig
            pods created:      6000 of 6000 in 59.99 s: 100.0 pods/s (asked 100)
            pods bound:        5990 of 6000; 10 never bound (drain: up to 30 s after the stream)
            throughput:        99.5 bound pods/s from the start of the stream to the last bind
            first bind:        0.31 s after the start of the stream
            create to bound:   p50 0.412 s, p90 0.800 s, p99 0.990 s, max 1.200 s (5990 pods)
            bound per second:  1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20  \
            (seconds 1-20 from the start of the stream)
                               21  (second 21)
            scheduler CPU:     12.35 s over 60.20 s from the start of the stream: 2.06 s per \
            1,000 bound pods
            scheduler log:     /tmp/caldera-load-scheduler-1.log
            cleanup:           everything the run created was deleted
            """);
  }

  @Test
  void aBacklog_saysWhenTheFirstAndTheLastPodWereBoundAfterTheLaunch() {
    LoadReport s = stream();
    LoadReport r =
        new LoadReport(
            "backlog",
            s.workload(),
            s.apiServer(),
            s.namespace(),
            s.nodes(),
            s.scheduler(),
            "the launch",
            1_000,
            1_000,
            0,
            null,
            null,
            3.2,
            312.0,
            1_000,
            0,
            0,
            30,
            160.0,
            new LoadReport.Latency(1_000, 7.0, 9.0, 9.5, 9.6),
            2.71,
            6.25,
            280.9,
            List.of(0, 0, 120, 300, 300, 280),
            6.9,
            6.3,
            6.9,
            null,
            null,
            List.of("could not delete queue q: HTTP 403 Forbidden"));

    assertThat(table(r))
        .contains(
            "pods created:      1000 of 1000 in 3.20 s: 312.0 pods/s (the backlog, before the launch)\n")
        .contains(
            "pods bound:        1000 of 1000, none left unbound (drain: up to 30 s after the launch)\n")
        .contains("first bind:        2.71 s after the launch\n")
        .contains("all bound:         6.25 s after the launch\n")
        .contains("bind rate:         280.9 pods/s from the first bind to the last\n")
        .contains("bound per second:  0 0 120 300 300 280  (seconds 1-6 from the launch)\n")
        .contains("cleanup:           could not delete queue q: HTTP 403 Forbidden\n")
        .doesNotContain("scheduler log");
  }

  @Test
  void unknownCpu_andAnEndedScheduler_andFailedCreates_areSaid() {
    LoadReport s = stream();
    LoadReport r =
        new LoadReport(
            s.mode(),
            s.workload(),
            s.apiServer(),
            s.namespace(),
            s.nodes(),
            s.scheduler(),
            s.windowStart(),
            10,
            8,
            2,
            "pod-3: HTTP 500",
            100.0,
            0.1,
            80.0,
            0,
            8,
            0,
            30,
            null,
            null,
            null,
            null,
            null,
            List.of(),
            null,
            null,
            null,
            "the scheduler exited with code 1",
            null,
            List.of());

    assertThat(table(r))
        .contains("create failures:   2; the first: pod-3: HTTP 500\n")
        .contains("throughput:        no pod bound\n")
        .contains("create to bound:   no pod bound\n")
        .contains(
            "scheduler CPU:     not known (--launch or --scheduler-pid names the scheduler's process)\n")
        .contains(
            "scheduler ended:   the scheduler exited with code 1 before the run's end; see its log\n")
        .doesNotContain("bound per second");
  }

  @Test
  void json_hasEveryFigure_namedAsTheRecord_withNullForWhatDoesNotApply() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    stream().printJson(new PrintStream(bytes, true, StandardCharsets.UTF_8));

    JsonNode json = new ObjectMapper().readTree(bytes.toByteArray());
    assertThat(json.path("mode").asText()).isEqualTo("stream");
    assertThat(json.path("podsBound").asInt()).isEqualTo(5_990);
    assertThat(json.path("createToBound").path("p99").asDouble()).isEqualTo(0.99);
    assertThat(json.path("boundPerSecond")).hasSize(21);
    assertThat(json.path("schedulerCpuSecondsPer1000Bound").asDouble()).isEqualTo(2.0609);
    assertThat(json.has("allBoundSeconds")).isTrue();
    assertThat(json.path("allBoundSeconds").isNull()).isTrue();
    assertThat(json.path("cleanupProblems")).isEmpty();
  }

  @Test
  void withCleanupProblems_keepsEveryOtherFigure() {
    LoadReport r = stream().withCleanupProblems(List.of("x"));

    assertThat(r.cleanupProblems()).containsExactly("x");
    assertThat(r.withCleanupProblems(List.of())).isEqualTo(stream());
  }

  @Test
  void number_dropsZerosItDoesNotNeed() {
    assertThat(LoadReport.number(100)).isEqualTo("100");
    assertThat(LoadReport.number(0.5)).isEqualTo("0.5");
    assertThat(LoadReport.number(1.0 / 3)).isEqualTo("0.333");
  }
}
