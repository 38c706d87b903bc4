package dev.caldera.plugins.capacitycard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class CardArgumentsTest {

  private static CardArguments parse(Map<String, Object> values) {
    return CardArguments.parse(new PluginArguments("capacity-card", values, false));
  }

  private static void rejects(String key, Object value, String expected) {
    assertThatThrownBy(() -> parse(Map.of(key, value)))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining(key)
        .hasMessageContaining(expected)
        .satisfies(e -> assertThat(((PluginArgumentException) e).key()).isEqualTo(key));
  }

  @Test
  void defaults() {
    CardArguments args = parse(Map.of());

    assertThat(args.cardUnlimitedCpuMemory()).isFalse();
    assertThat(args.overCommitFactor()).isEqualTo(1.0);
    assertThat(args.preferenceWeight()).isEqualTo(10.0);
    assertThat(args.reclaimPolicy()).isNull();
    assertThat(args.ownerKindServiceTypes()).isNull();
  }

  @Test
  void cardUnlimitedCpuMemory_isABoolean() {
    assertThat(parse(Map.of("cardUnlimitedCpuMemory", true)).cardUnlimitedCpuMemory()).isTrue();
    assertThat(parse(Map.of("cardUnlimitedCpuMemory", "true")).cardUnlimitedCpuMemory()).isTrue();
    rejects("cardUnlimitedCpuMemory", "yes", "true or false");
    rejects("cardUnlimitedCpuMemory", 1, "true or false");
  }

  @Test
  void overCommitFactor_isANumberOfAtLeastOne() {
    assertThat(parse(Map.of("overCommitFactor", 2)).overCommitFactor()).isEqualTo(2.0);
    assertThat(parse(Map.of("overCommitFactor", "1.5")).overCommitFactor()).isEqualTo(1.5);
    rejects("overCommitFactor", "lots", "a number");
    rejects("overCommitFactor", 0.5, "at least 1");
    rejects("overCommitFactor", -1, "at least 1");
    rejects("overCommitFactor", Double.NaN, "at least 1");
  }

  @Test
  void cardPreferenceWeight_isANonNegativeNumber() {
    assertThat(parse(Map.of("cardPreferenceWeight", 0)).preferenceWeight()).isZero();
    assertThat(parse(Map.of("cardPreferenceWeight", 2.5)).preferenceWeight()).isEqualTo(2.5);
    rejects("cardPreferenceWeight", -1, "at least 0");
    rejects("cardPreferenceWeight", true, "a number");
  }

  @Test
  void reclaimPolicy_isAName() {
    assertThat(parse(Map.of("reclaimPolicy", "tidal")).reclaimPolicy()).isEqualTo("tidal");
    rejects("reclaimPolicy", " ", "the name of a policy");
    rejects("reclaimPolicy", List.of("a"), "a string");
  }

  @Test
  void podOwnerReferenceToServiceType_isAMapOfKindToKnownServiceType() {
    CardArguments args =
        parse(
            Map.of(
                "podOwnerReferenceToServiceType",
                Map.of("ReplicaSet", "inference", "Job", "training")));

    assertThat(args.ownerKindServiceTypes())
        .containsOnly(Map.entry("Job", "training"), Map.entry("ReplicaSet", "inference"));
    rejects("podOwnerReferenceToServiceType", "ReplicaSet=inference", "a map of owner kind");
    rejects(
        "podOwnerReferenceToServiceType", Map.of("Job", "batch"), "inference, training or unknown");
    rejects("podOwnerReferenceToServiceType", Map.of("Job", 1), "a map of owner kind");
  }

  @Test
  void reclaimPolicyAndOwnerMap_together_areAnError() {
    assertThatThrownBy(
            () ->
                parse(
                    Map.of(
                        "reclaimPolicy",
                        "tidal",
                        "podOwnerReferenceToServiceType",
                        Map.of("Job", "training"))))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("reclaimPolicy")
        .hasMessageContaining("podOwnerReferenceToServiceType");
  }

  @Test
  void factory_isFoundByServiceLoaderAndValidates() {
    PluginFactory factory =
        ServiceLoader.load(PluginFactory.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(f -> f.name().equals("capacity-card"))
            .findFirst()
            .orElseThrow();

    assertThat(factory.create(PluginArguments.empty("capacity-card")).name())
        .isEqualTo("capacity-card");
    assertThatThrownBy(
            () ->
                factory.create(
                    new PluginArguments("capacity-card", Map.of("overCommitFactor", "x"), false)))
        .isInstanceOf(PluginArgumentException.class);
  }
}
