package dev.caldera.framework.internal.session;

import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import dev.caldera.api.Session;
import dev.caldera.api.action.Action;
import dev.caldera.api.action.ActionSession;
import dev.caldera.api.model.Container;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.Scheduler;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.conf.SchedulerConf;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Runs a real session with plugins made of lambdas and a probe action that hands the {@link
 * ActionSession} to the test, so tests can check how extension points combine.
 */
final class SessionProbe {

  private final Map<String, BiConsumer<Session, Extensions>> plugins = new LinkedHashMap<>();
  final List<Node> nodes = new ArrayList<>();
  final List<Pod> pods = new ArrayList<>();
  final List<PodGroup> podGroups = new ArrayList<>();
  final List<Queue> queues = new ArrayList<>(List.of(queue("default")));
  private Consumer<SessionResult.Bind> committedBinds;

  /** Hands {@code sink} each bind as the session commits it. */
  SessionProbe handingOverBindsTo(Consumer<SessionResult.Bind> sink) {
    this.committedBinds = sink;
    return this;
  }

  /** Adds a plugin whose session-open registers functions. */
  SessionProbe plugin(String name, BiConsumer<Session, Extensions> open) {
    plugins.put(name, open);
    return this;
  }

  static Queue queue(String name) {
    return new Queue(
        ObjectMeta.named("", name), 1, null, null, null, null, "", 0, null, null, "Open", null);
  }

  SessionProbe node(String name, String cpu) {
    return node(name, cpu, "8Gi");
  }

  SessionProbe node(String name, String cpu, String memory) {
    nodes.add(
        new Node(
            ObjectMeta.named("", name),
            false,
            null,
            Map.of(
                "cpu",
                Quantity.parse(cpu),
                "memory",
                Quantity.parse(memory),
                "pods",
                Quantity.parse("110")),
            null,
            null));
    return this;
  }

  SessionProbe job(String name, int minMember, String... podNamesAndNodes) {
    return job(name, minMember, Map.of("cpu", Quantity.parse("1")), podNamesAndNodes);
  }

  SessionProbe job(
      String name, int minMember, Map<String, Quantity> requests, String... podNamesAndNodes) {
    podGroups.add(
        new PodGroup(
            ObjectMeta.named("ns", name), "default", minMember, null, null, null, "Inqueue", null));
    for (String spec : podNamesAndNodes) {
      String[] parts = spec.split("@");
      String node = parts.length > 1 ? parts[1] : null;
      pods.add(
          new Pod(
              new ObjectMeta(
                  parts[0],
                  "ns",
                  null,
                  Instant.EPOCH,
                  null,
                  null,
                  Map.of("scheduling.k8s.io/group-name", name),
                  null),
              "volcano",
              node,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              List.of(new Container("c", null, requests, null, null)),
              null,
              null,
              null,
              null,
              node == null ? "Pending" : "Running",
              null,
              null));
    }
    return this;
  }

  /** Runs one session with {@code conf} and the probe action last. */
  SessionResult run(String confYaml, Consumer<ActionSession> probe) throws Exception {
    return run(confYaml, probe, null);
  }

  /**
   * As {@link #run(String, Consumer)}, the session taking what the last one that {@code carried}
   * saw opened and did not change, and handing its own over (null: a scheduler of its own).
   */
  SessionResult run(String confYaml, Consumer<ActionSession> probe, CarriedStates carried)
      throws Exception {
    SchedulerConf conf = SchedulerConf.parse(confYaml, "test.conf");
    Action action =
        new Action() {
          @Override
          public String name() {
            return "probe";
          }

          @Override
          public void execute(ActionSession session) {
            probe.accept(session);
          }
        };
    PluginRegistry registry =
        new PluginRegistry() {
          @Override
          public Optional<PluginFactory> plugin(String name) {
            BiConsumer<Session, Extensions> open = plugins.get(name);
            if (open == null) {
              return Optional.empty();
            }
            return Optional.of(
                new PluginFactory() {
                  @Override
                  public String name() {
                    return name;
                  }

                  @Override
                  public Plugin create(PluginArguments arguments) {
                    return new Plugin() {
                      @Override
                      public String name() {
                        return name;
                      }

                      @Override
                      public void onSessionOpen(Session session, Extensions extensions) {
                        open.accept(session, extensions);
                      }
                    };
                  }
                });
          }

          @Override
          public Optional<Action> action(String name) {
            return name.equals("probe") ? Optional.of(action) : Optional.empty();
          }

          @Override
          public SortedSet<String> pluginNames() {
            return new TreeSet<>(plugins.keySet());
          }

          @Override
          public SortedSet<String> actionNames() {
            return new TreeSet<>(List.of("probe"));
          }
        };
    ClusterSnapshot snapshot =
        new ClusterSnapshot(
            nodes, pods, podGroups, queues, null, Instant.parse("2026-01-01T00:00:00Z"));
    if (committedBinds != null) {
      return new SessionRunner(
              registry,
              conf,
              new PodDigests(),
              new EvictionMemory(),
              carried == null ? new CarriedStates() : carried)
          .handingOverBindsAtCommit(committedBinds)
          .run(snapshot);
    }
    if (carried != null) {
      return new SessionRunner(registry, conf, new PodDigests(), new EvictionMemory(), carried)
          .run(snapshot);
    }
    return new Scheduler(registry).runSession(snapshot, conf);
  }
}
