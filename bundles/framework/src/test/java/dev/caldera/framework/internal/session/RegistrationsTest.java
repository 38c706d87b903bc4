package dev.caldera.framework.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.extension.JobOrderFn;
import dev.caldera.api.extension.NodeLocality;
import dev.caldera.api.extension.PredicateFn;
import dev.caldera.api.extension.Status;
import dev.caldera.framework.ExtensionTable.Combination;
import dev.caldera.framework.conf.Flag;
import dev.caldera.framework.conf.PluginOption;
import dev.caldera.framework.conf.Tier;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RegistrationsTest {

  private static PluginOption entry(String name, Flag... off) {
    EnumSet<Flag> on = EnumSet.copyOf(PluginOption.defaults(name).enabled());
    List.of(off).forEach(on::remove);
    return new PluginOption(name, on, Map.of(), false);
  }

  @Test
  void freeze_givesEachFunctionOneDescriptor_withPluginClockAndLocality() {
    Registrations registrations = new Registrations();
    PredicateFn fn = (t, n) -> Status.OK;
    NodeLocality locality = t -> "all";
    registrations.forPlugin("a").add(ExtensionPoint.PREDICATE, fn, locality);
    registrations.forPlugin("b").add(ExtensionPoint.PREDICATE, (t, n) -> Status.OK);
    FunctionTimes times = new FunctionTimes();

    Tiers<PredicateFn> predicates =
        registrations
            .freeze(List.of(new Tier(List.of(entry("a"))), new Tier(List.of(entry("b")))), times)
            .get(ExtensionPoint.PREDICATE, Combination.FIRST_FAILURE);

    assertThat(predicates.tiers()).hasSize(2);
    Registered<PredicateFn> a = predicates.tiers().get(0).get(0);
    assertThat(a.plugin()).isEqualTo("a");
    assertThat(a.fn()).isSameAs(fn);
    assertThat(a.locality()).isSameAs(locality);
    assertThat(a.clock()).isSameAs(times.clock("a", "predicate"));
    assertThat(predicates.tiers().get(1).get(0).locality()).isNull();
  }

  @Test
  void freeze_leavesOutAnEntryWhoseGateIsOff_andTimesOnlyTheSampledPoints() {
    Registrations registrations = new Registrations();
    Extensions a = registrations.forPlugin("a");
    a.add(ExtensionPoint.JOB_ORDER, (l, r) -> 0);
    a.add(ExtensionPoint.PREDICATE, (t, n) -> Status.OK);

    Registrations.Frozen frozen =
        registrations.freeze(
            List.of(new Tier(List.of(entry("a", Flag.PREDICATE)))), new FunctionTimes());

    assertThat(frozen.get(ExtensionPoint.PREDICATE, Combination.FIRST_FAILURE).all()).isEmpty();
    List<Registered<JobOrderFn>> orders =
        frozen.get(ExtensionPoint.JOB_ORDER, Combination.COMPARE_CHAIN).all();
    assertThat(orders).singleElement().satisfies(r -> assertThat(r.clock()).isNull());
  }

  @Test
  void get_refusesCodeThatCombinesAPointOtherwiseThanTheTable() {
    Registrations.Frozen frozen = new Registrations().freeze(List.of(), new FunctionTimes());

    assertThatThrownBy(() -> frozen.get(ExtensionPoint.JOB_ORDER, Combination.VOTE))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "extension point jobOrder is combined as COMPARE_CHAIN in the table, but dispatched"
                + " as VOTE");
  }
}
