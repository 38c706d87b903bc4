package dev.caldera.sim.internal.live;

import dev.caldera.api.model.Container;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.OwnerReference;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.PriorityClass;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.SessionResult;
import dev.caldera.sim.ClusterState;
import dev.caldera.sim.EmbeddedCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * A workload that keeps an embedded cluster busy, the way users and controllers would: training
 * jobs (gangs of GPU pods, low priority, preemptable) and inference services (one GPU pod, high
 * priority) arrive over time; a bound pod runs for its job's run time and then succeeds; a job
 * whose pods all succeeded is deleted; a job that lost a pod to an eviction is restarted whole, as
 * Volcano's job controller does by default. Deterministic for a seed and the same call times.
 *
 * <p>It adapts to the cluster it is given: GPU models from the nodes' {@code
 * nvidia.com/gpu.product} labels (CPU-only jobs when there are none), training and inference queues
 * by name ({@code *train*}, {@code *infer*}, else every queue), and the lowest and highest priority
 * classes.
 */
public final class WorkloadGenerator {

  static final String NAMESPACE = "workload";
  static final String GROUP_ANNOTATION = "scheduling.k8s.io/group-name";
  static final Duration TRAINING_EVERY = Duration.ofSeconds(4);
  static final Duration INFERENCE_EVERY = Duration.ofSeconds(6);
  static final int MAX_PENDING_PODS = 40;
  private static final String GPU = "nvidia.com/gpu";
  private static final String GPU_PRODUCT = "nvidia.com/gpu.product";

  /** What the generator did so far. */
  public record Counts(long jobsSubmitted, long podsCompleted, long jobsRestarted) {}

  private enum Kind {
    TRAINING,
    INFERENCE
  }

  private record Job(
      Kind kind,
      String name,
      String queue,
      int pods,
      String product,
      int cardsPerPod,
      Duration runTime,
      PriorityClass priority) {
    String key() {
      return NAMESPACE + "/" + name;
    }
  }

  private final Random random;
  private final List<String> trainingQueues;
  private final List<String> inferenceQueues;
  private final List<String> products;
  private final int maxCardsPerNode;
  private final PriorityClass low;
  private final PriorityClass high;
  private final Map<String, Job> jobs = new LinkedHashMap<>();
  private final Map<String, Instant> endOf = new LinkedHashMap<>();
  private final Map<String, Integer> succeeded = new HashMap<>();
  private final Set<String> toRestart = new LinkedHashSet<>();
  private Instant nextTraining;
  private Instant nextInference;
  private long serial;
  private long jobsSubmitted;
  private long podsCompleted;
  private long jobsRestarted;

  /**
   * A generator for a cluster seeded with {@code initial}; the first jobs arrive at {@code start}.
   */
  public WorkloadGenerator(ClusterState initial, long seed, Instant start) {
    this.random = new Random(seed);
    List<String> queues =
        initial.queues().stream().map(Queue::name).filter(n -> !n.equals("root")).toList();
    this.trainingQueues = matching(queues, "train");
    this.inferenceQueues = matching(queues, "infer");
    TreeSet<String> models = new TreeSet<>();
    int maxCards = 0;
    for (Node n : initial.nodes()) {
      Quantity cards = n.allocatable().get(GPU);
      String product = n.metadata().labels().get(GPU_PRODUCT);
      if (cards != null && cards.value() > 0 && product != null) {
        models.add(product);
        maxCards = (int) Math.max(maxCards, cards.value());
      }
    }
    this.products = List.copyOf(models);
    this.maxCardsPerNode = maxCards;
    List<PriorityClass> classes =
        initial.priorityClasses().stream()
            .sorted(Comparator.comparingInt(PriorityClass::value))
            .toList();
    this.low = classes.size() >= 2 ? classes.get(0) : null;
    this.high = classes.size() >= 2 ? classes.get(classes.size() - 1) : null;
    this.nextTraining = start;
    this.nextInference = start;
  }

  private static List<String> matching(List<String> queues, String word) {
    List<String> m =
        queues.stream().filter(q -> q.toLowerCase(Locale.ROOT).contains(word)).sorted().toList();
    if (!m.isEmpty()) {
      return m;
    }
    return queues.isEmpty() ? List.of("default") : queues.stream().sorted().toList();
  }

  /**
   * Brings the cluster to {@code now}: ends pods whose run time is over, deletes finished jobs,
   * restarts jobs that lost a pod, and submits the jobs that arrived.
   */
  public void tick(EmbeddedCluster cluster, Instant now) {
    for (Map.Entry<String, Instant> e : new ArrayList<>(endOf.entrySet())) {
      if (!e.getValue().isAfter(now)) {
        String pod = e.getKey();
        endOf.remove(pod);
        if (cluster.setPodPhase(pod, "Succeeded")) {
          podsCompleted++;
          succeeded.merge(jobKeyOf(pod), 1, Integer::sum);
        }
      }
    }
    for (Job job : new ArrayList<>(jobs.values())) {
      if (succeeded.getOrDefault(job.key(), 0) >= job.pods()) {
        cluster.delete(job.key());
        forget(job);
      }
    }
    for (String key : toRestart) {
      Job job = jobs.get(key);
      if (job != null) {
        cluster.delete(key);
        forget(job);
        submit(cluster, job, now);
        jobsRestarted++;
      }
    }
    toRestart.clear();
    while (!nextTraining.isAfter(now)) {
      if (pendingPods() < MAX_PENDING_PODS) {
        submit(cluster, training(), now);
      }
      nextTraining = nextTraining.plus(interval(TRAINING_EVERY));
    }
    while (!nextInference.isAfter(now)) {
      if (pendingPods() < MAX_PENDING_PODS) {
        submit(cluster, inference(), now);
      }
      nextInference = nextInference.plus(interval(INFERENCE_EVERY));
    }
  }

  /** Notes what a session did: bound pods start running now, evictions restart their job. */
  public void applied(SessionResult result, Instant now) {
    for (SessionResult.Bind b : result.binds()) {
      Job job = jobs.get(jobKeyOf(b.pod()));
      if (job != null) {
        endOf.put(b.pod(), now.plus(job.runTime()));
      }
    }
    for (SessionResult.Eviction e : result.evictions()) {
      String key = jobKeyOf(e.pod());
      if (jobs.containsKey(key)) {
        toRestart.add(key);
      }
    }
  }

  /** Totals so far. */
  public Counts counts() {
    return new Counts(jobsSubmitted, podsCompleted, jobsRestarted);
  }

  private int pendingPods() {
    int pending = 0;
    for (Job job : jobs.values()) {
      pending += job.pods();
    }
    return pending - endOf.size() - succeeded.values().stream().mapToInt(Integer::intValue).sum();
  }

  private void forget(Job job) {
    jobs.remove(job.key());
    succeeded.remove(job.key());
    for (int i = 0; i < job.pods(); i++) {
      endOf.remove(NAMESPACE + "/" + job.name() + "-" + i);
    }
  }

  /** Pod {@code workload/train-0003-1} belongs to job {@code workload/train-0003}. */
  private static String jobKeyOf(String podKey) {
    int dash = podKey.lastIndexOf('-');
    return dash < 0 ? podKey : podKey.substring(0, dash);
  }

  private Duration interval(Duration mean) {
    double exponential = -Math.log(1 - random.nextDouble());
    return Duration.ofMillis(Math.max(200, Math.round(mean.toMillis() * exponential)));
  }

  private Job training() {
    int pods = 2 + random.nextInt(3);
    int cards = products.isEmpty() ? 0 : Math.min(maxCardsPerNode, 1 << random.nextInt(3));
    return new Job(
        Kind.TRAINING,
        String.format(Locale.ROOT, "train-%04d", ++serial),
        trainingQueues.get(random.nextInt(trainingQueues.size())),
        pods,
        products.isEmpty() ? null : products.get(random.nextInt(products.size())),
        cards,
        Duration.ofSeconds(15 + random.nextInt(31)),
        low);
  }

  private Job inference() {
    return new Job(
        Kind.INFERENCE,
        String.format(Locale.ROOT, "infer-%04d", ++serial),
        inferenceQueues.get(random.nextInt(inferenceQueues.size())),
        1,
        products.isEmpty() ? null : products.get(random.nextInt(products.size())),
        products.isEmpty() ? 0 : 1,
        Duration.ofSeconds(20 + random.nextInt(41)),
        high);
  }

  private void submit(EmbeddedCluster cluster, Job job, Instant now) {
    Map<String, Quantity> perPod = new LinkedHashMap<>();
    int cpu = job.cardsPerPod() > 0 ? 8 * job.cardsPerPod() : (job.kind() == Kind.TRAINING ? 4 : 2);
    perPod.put("cpu", Quantity.of(cpu));
    perPod.put("memory", Quantity.parse((4 * cpu) + "Gi"));
    if (job.cardsPerPod() > 0) {
      perPod.put(GPU, Quantity.of(job.cardsPerPod()));
    }
    boolean training = job.kind() == Kind.TRAINING;
    String serviceType = training ? "training" : "inference";
    Map<String, String> groupAnnotations = new LinkedHashMap<>();
    groupAnnotations.put("volcano.sh/service.type", serviceType);
    if (job.product() != null) {
      groupAnnotations.put(
          "volcano.sh/card.request",
          "{\"" + job.product() + "\":" + job.cardsPerPod() * job.pods() + "}");
    }
    Map<String, Quantity> minResources = new LinkedHashMap<>();
    perPod.forEach(
        (name, q) ->
            minResources.put(
                name, Quantity.ofMilli(Math.multiplyExact(q.milliValue(), (long) job.pods()))));
    OwnerReference owner =
        new OwnerReference(
            training ? "batch/v1" : "apps/v1",
            training ? "Job" : "ReplicaSet",
            job.name(),
            NAMESPACE + "-" + job.name(),
            true);
    PodGroup group =
        new PodGroup(
            new ObjectMeta(
                job.name(), NAMESPACE, null, now, null, Map.of(), groupAnnotations, List.of(owner)),
            job.queue(),
            job.pods(),
            null,
            minResources,
            job.priority() == null ? null : job.priority().name(),
            "Pending",
            null);
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < job.pods(); i++) {
      Map<String, String> annotations = new LinkedHashMap<>();
      annotations.put(GROUP_ANNOTATION, job.name());
      annotations.put("volcano.sh/preemptable", Boolean.toString(training));
      if (job.product() != null) {
        annotations.put("volcano.sh/card.name", job.product());
      }
      pods.add(
          new Pod(
              new ObjectMeta(
                  job.name() + "-" + i,
                  NAMESPACE,
                  null,
                  now,
                  null,
                  Map.of("app", job.name()),
                  annotations,
                  List.of(owner)),
              "volcano",
              "",
              job.priority() == null ? null : job.priority().value(),
              job.priority() == null ? null : job.priority().name(),
              null,
              null,
              null,
              null,
              null,
              null,
              List.of(
                  new Container(
                      training ? "trainer" : "server",
                      training ? "trainer:latest" : "server:latest",
                      perPod,
                      null,
                      null)),
              null,
              null,
              null,
              null,
              "Pending",
              null,
              null));
    }
    cluster.submit(group, pods);
    jobs.put(job.key(), job);
    jobsSubmitted++;
  }
}
