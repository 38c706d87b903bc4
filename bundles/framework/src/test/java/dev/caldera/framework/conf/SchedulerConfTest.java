package dev.caldera.framework.conf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.caldera.api.PluginFactory;
import dev.caldera.api.action.Action;
import dev.caldera.framework.PluginRegistry;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class SchedulerConfTest {

  @Test
  void parse_defaultConfHasVolcanoTiersAndDefaultFlags() throws Exception {
    SchedulerConf conf = SchedulerConf.parse(SchedulerConf.DEFAULT_CONF, "default");
    assertThat(conf.actions()).containsExactly("enqueue", "allocate", "backfill");
    assertThat(conf.tiers()).hasSize(2);
    PluginOption gang = conf.tiers().get(0).plugins().get(1);
    assertThat(gang.name()).isEqualTo("gang");
    assertThat(gang.isEnabled(Flag.PREEMPTABLE)).isTrue();
    assertThat(gang.isEnabled(Flag.HIERARCHY)).isFalse();
    assertThat(gang.isEnabled(Flag.CLUSTER_ORDER)).isFalse();
  }

  @Test
  void parse_flagsArgumentsAndConfigurations() throws Exception {
    SchedulerConf conf =
        SchedulerConf.parse(
            """
            actions: " enqueue ,allocate,preempt"
            tiers:
            - plugins:
              - name: gang
                enablePreemptable: false
                enabledHierarchy: true
              - name: capacity
                enableHierarchy: true
                optional: true
                arguments: {ancestorReclaimLevel: 2}
            configurations:
            - name: preempt
              arguments: {enableTopologyAwarePreemption: true}
            """,
            "c");
    assertThat(conf.actions()).containsExactly("enqueue", "allocate", "preempt");
    PluginOption gang = conf.tiers().get(0).plugins().get(0);
    assertThat(gang.isEnabled(Flag.PREEMPTABLE)).isFalse();
    PluginOption capacity = conf.tiers().get(0).plugins().get(1);
    assertThat(capacity.optional()).isTrue();
    assertThat(capacity.arguments()).containsEntry("ancestorReclaimLevel", 2);
    assertThat(conf.hierarchyEnabled("capacity")).isTrue();
    assertThat(conf.configurations().get("preempt"))
        .containsEntry("enableTopologyAwarePreemption", true);
  }

  @Test
  void parse_reportsEveryProblemWithItsKey() {
    ConfException e =
        catchThrowableOfType(
            ConfException.class,
            () ->
                SchedulerConf.parse(
                    """
                    actions: "enqueue,,allocate"
                    tier: []
                    tiers:
                    - plugins:
                      - name: gang
                        enablePreemptible: false
                      - name: drf
                        enableJobOrder: maybe
                    """,
                    "bad.conf"));
    assertThat(e.problems())
        .anySatisfy(p -> assertThat(p).contains("empty action name"))
        .anySatisfy(p -> assertThat(p).contains("unknown key \"tier\""))
        .anySatisfy(
            p -> assertThat(p).contains("(gang)").contains("unknown key \"enablePreemptible\""))
        .anySatisfy(p -> assertThat(p).contains("(drf).enableJobOrder: expected true or false"));
    assertThat(e.getMessage()).startsWith("bad.conf: ");
  }

  @Test
  void parse_rejectsDrfHierarchyWithProportionInOneTier() {
    ConfException e =
        catchThrowableOfType(
            ConfException.class,
            () ->
                SchedulerConf.parse(
                    """
                    actions: allocate
                    tiers:
                    - plugins: [{name: drf, enableHierarchy: true}, {name: proportion}]
                    """,
                    "c"));
    assertThat(e.problems()).singleElement().asString().contains("proportion and drf");
  }

  @Test
  void parse_rejectsCapacityWithProportion_namingBothEntries() {
    ConfException e =
        catchThrowableOfType(
            ConfException.class,
            () ->
                SchedulerConf.parse(
                    """
                    actions: allocate
                    tiers:
                    - plugins: [{name: priority}, {name: proportion}]
                    - plugins: [{name: capacity, enableHierarchy: true}]
                    """,
                    "c"));
    assertThat(e.problems())
        .containsExactly(
            "tiers[1].plugins[0] (capacity) and tiers[0].plugins[1] (proportion): the plugins"
                + " capacity and proportion are mutually exclusive (both set the queues' deserved"
                + " share); enable one of them");
  }

  @Test
  void parse_notYaml() {
    ConfException e =
        catchThrowableOfType(
            ConfException.class, () -> SchedulerConf.parse("actions: [unclosed", "x"));
    assertThat(e.getMessage()).contains("not valid YAML");
  }

  @Test
  void missing_namesUnknownActionsAndUnavailablePluginsButSkipsOptional() throws Exception {
    SchedulerConf conf =
        SchedulerConf.parse(
            """
            actions: "allocate, shuffle"
            tiers:
            - plugins: [{name: gang}, {name: capacity}, {name: usage, optional: true}]
            """,
            "c");
    PluginRegistry registry = registry(Set.of("gang"), Set.of("allocate"));
    assertThat(conf.missing(registry))
        .containsExactly(
            "actions: unknown action \"shuffle\" (available: allocate)",
            "tiers[0]: plugin \"capacity\" is not available (available: gang)");
  }

  private static PluginRegistry registry(Set<String> plugins, Set<String> actions) {
    return new PluginRegistry() {
      @Override
      public Optional<PluginFactory> plugin(String name) {
        return plugins.contains(name) ? Optional.of(new DummyFactory(name)) : Optional.empty();
      }

      @Override
      public Optional<Action> action(String name) {
        return actions.contains(name) ? Optional.of(new DummyAction(name)) : Optional.empty();
      }

      @Override
      public SortedSet<String> pluginNames() {
        return new TreeSet<>(plugins);
      }

      @Override
      public SortedSet<String> actionNames() {
        return new TreeSet<>(actions);
      }
    };
  }

  private record DummyFactory(String name) implements PluginFactory {
    @Override
    public dev.caldera.api.Plugin create(dev.caldera.api.PluginArguments arguments) {
      throw new UnsupportedOperationException();
    }
  }

  private record DummyAction(String name) implements Action {
    @Override
    public void execute(dev.caldera.api.action.ActionSession session) {}
  }

  @Test
  void flags_haveVolcanoSpellingAndDefaults() {
    assertThat(Flag.byKey("enabledVictim")).isEqualTo(Flag.VICTIM);
    assertThat(Flag.byKey("enableJobEnqueued")).isEqualTo(Flag.JOB_ENQUEUED);
    assertThat(Flag.HIERARCHY.defaultValue()).isFalse();
    assertThat(List.of(Flag.values()).stream().filter(f -> !f.defaultValue()))
        .containsExactly(Flag.HIERARCHY, Flag.CLUSTER_ORDER);
  }
}
