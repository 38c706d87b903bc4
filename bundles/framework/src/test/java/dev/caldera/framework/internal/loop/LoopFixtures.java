package dev.caldera.framework.internal.loop;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import dev.caldera.api.Session;
import dev.caldera.api.action.Action;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.ClusterSource;
import dev.caldera.framework.ClusterWriter;
import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.SourceStatus;
import dev.caldera.testkit.NodeBuilder;
import dev.caldera.testkit.PodBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** Small fakes for loop tests: a registry that changes, a cluster with one pending pod. */
final class LoopFixtures {

  private LoopFixtures() {}

  /** A registry whose plugins tests add and remove; actions are the framework's built-ins. */
  static final class MutableRegistry implements PluginRegistry {
    private final PluginRegistry builtIns = new ServiceLoaderPluginRegistry();
    final Map<String, PluginFactory> plugins = new ConcurrentHashMap<>();
    final Map<String, String> origins = new ConcurrentHashMap<>();

    MutableRegistry add(PluginFactory f, String origin) {
      plugins.put(f.name(), f);
      origins.put(f.name(), origin);
      return this;
    }

    void remove(String name) {
      plugins.remove(name);
      origins.remove(name);
    }

    @Override
    public Optional<PluginFactory> plugin(String name) {
      return Optional.ofNullable(plugins.get(name));
    }

    @Override
    public Optional<Action> action(String name) {
      return builtIns.action(name);
    }

    @Override
    public SortedSet<String> pluginNames() {
      return new TreeSet<>(plugins.keySet());
    }

    @Override
    public SortedSet<String> actionNames() {
      return builtIns.actionNames();
    }

    @Override
    public String origin(String pluginName) {
      return origins.getOrDefault(pluginName, "missing");
    }
  }

  /**
   * A plugin factory that registers nothing and records, per session, the policies its session saw;
   * an argument {@code bad} is refused.
   */
  static final class RecordingFactory implements PluginFactory {
    final String name;
    final List<Map<String, String>> policiesSeen = new CopyOnWriteArrayList<>();

    RecordingFactory(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Plugin create(PluginArguments arguments) {
      if (arguments.has("bad")) {
        throw arguments.wrong("bad", arguments.values().get("bad"), "no such argument");
      }
      return new Plugin() {
        @Override
        public String name() {
          return name;
        }

        @Override
        public void onSessionOpen(Session session, Extensions extensions) {
          policiesSeen.add(session.cluster().policies());
        }
      };
    }
  }

  /** One 4-CPU node and one pending 1-CPU pod in its own pod group of the default queue. */
  static final class OnePodCluster implements ClusterSource, ClusterWriter {
    final List<SessionResult> applied = new CopyOnWriteArrayList<>();
    Map<String, String> policies = Map.of();
    volatile SourceStatus status = SourceStatus.ready();
    volatile ClusterWriter.Accepted accepted;

    @Override
    public SourceStatus status() {
      return status;
    }

    @Override
    public ClusterWriter.Accepted accepted() {
      return accepted;
    }

    @Override
    public ClusterSnapshot snapshot() {
      return new ClusterSnapshot(
          List.of(
              NodeBuilder.node("n1")
                  .allocatable("cpu", "4", "memory", "8Gi", "pods", "110")
                  .build()),
          List.of(
              PodBuilder.pod("ns/p1")
                  .annotation("scheduling.k8s.io/group-name", "pg1")
                  .requests("cpu", "1")
                  .build()),
          List.of(
              new PodGroup(
                  ObjectMeta.named("ns", "pg1"), "default", 1, null, null, null, "Inqueue", null)),
          List.of(
              new Queue(
                  ObjectMeta.named("", "default"),
                  1,
                  null,
                  null,
                  null,
                  null,
                  "",
                  0,
                  null,
                  null,
                  "Open",
                  null)),
          new ClusterInfo(null, null, null, null, null, policies),
          Instant.parse("2026-01-01T00:00:00Z"));
    }

    @Override
    public void apply(SessionResult result) {
      applied.add(result);
    }

    /** What bindAtCommit does: ignore (the default), take or throw. */
    enum AtCommit {
      IGNORE,
      TAKE,
      THROW
    }

    volatile AtCommit atCommit = AtCommit.IGNORE;
    final List<SessionResult.Bind> takenAtCommit = new CopyOnWriteArrayList<>();

    @Override
    public boolean bindAtCommit(SessionResult.Bind bind) {
      switch (atCommit) {
        case TAKE -> {
          takenAtCommit.add(bind);
          return true;
        }
        case THROW -> throw new IllegalStateException("writer broken");
        default -> {
          return false;
        }
      }
    }
  }
}
