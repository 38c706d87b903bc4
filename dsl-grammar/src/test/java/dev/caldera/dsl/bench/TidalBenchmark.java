package dev.caldera.dsl.bench;

import dev.caldera.api.extension.ReclaimableFn;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.dsl.CompileResult;
import dev.caldera.dsl.PolicyCompiler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The compiled tidal ReclaimableFn against the same rules hand-written in Java, for one inference
 * reclaimer over 1,000 candidates (a mix of inference, training and unknown workloads in a
 * reclaimable and a locked queue). Compiled by every build, run by hand (see
 * dsl-grammar/README.md):
 *
 * <pre>
 * java -cp ... org.openjdk.jmh.Main TidalBenchmark -f 1 -wi 2 -i 3 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class TidalBenchmark {

  static final int CANDIDATES = 1_000;

  private ReclaimableFn compiled;
  private ReclaimableFn handWritten;
  private TaskInfo reclaimer;
  private List<TaskInfo> candidates;

  @Setup
  public void setUp() throws IOException {
    BenchViews.Context context = new BenchViews.Context();
    context.queues.put("q-train", new BenchViews.QueueView("q-train", true));
    context.queues.put("q-locked", new BenchViews.QueueView("q-locked", false));
    context.queues.put("q-inf", new BenchViews.QueueView("q-inf", false));
    String[] annotations = {"training", null, "inference", null, "batch"};
    String[] owners = {null, "Job", "Deployment", null, "ReplicaSet"};
    candidates = new ArrayList<>();
    for (int i = 0; i < CANDIDATES; i++) {
      String queue = i % 7 == 0 ? "q-locked" : "q-train";
      String job = "ns/job-" + i;
      context.jobs.put(job, new BenchViews.Job("ns", "job-" + i, queue, annotations[i % 5]));
      candidates.add(new BenchViews.Task("ns", "pod-" + i, job, owners[i % 5]));
    }
    context.jobs.put("ns/svc", new BenchViews.Job("ns", "svc", "q-inf", "inference"));
    reclaimer = new BenchViews.Task("ns", "svc-0", "ns/svc", "ReplicaSet");

    Path tidal = Path.of(System.getProperty("caldera.tidal", "../policies/tidal.policy"));
    CompileResult r = PolicyCompiler.compile("tidal.policy", Files.readString(tidal));
    if (!r.ok()) {
      throw new IllegalStateException(r.render());
    }
    compiled = r.policy().reclaimable(context);
    handWritten = new HandWrittenTidal(context);
    int a = compiled.select(reclaimer, candidates).tasks().size();
    int b = handWritten.select(reclaimer, candidates).tasks().size();
    if (a != b || a == 0) {
      throw new IllegalStateException("compiled allows " + a + ", hand-written " + b);
    }
  }

  @Benchmark
  public Victims compiled() {
    return compiled.select(reclaimer, candidates);
  }

  @Benchmark
  public Victims handWritten() {
    return handWritten.select(reclaimer, candidates);
  }
}
