package dev.caldera.support.resource;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.resource.Dimension;
import dev.caldera.api.resource.Quantity;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.api.resource.ResourceView;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourceTest {

  private static final String GPU = "nvidia.com/gpu";

  private static Resource res(String... kv) {
    Map<String, Quantity> list = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      list.put(kv[i], Quantity.parse(kv[i + 1]));
    }
    return Resource.fromList(list);
  }

  @Test
  void fromList_storesUnitsAsVolcanoAndIgnoresNonResources() {
    Resource r =
        res(
            "cpu",
            "1500m",
            "memory",
            "1Gi",
            "pods",
            "110",
            GPU,
            "2",
            "count/pods",
            "5",
            "requests.cpu",
            "3",
            "gpu",
            "1");
    assertThat(r.milliCpu()).isEqualTo(1500);
    assertThat(r.memory()).isEqualTo(1L << 30);
    assertThat(r.get("pods")).isEqualTo(110);
    assertThat(r.maxTaskNum()).isEqualTo(110);
    assertThat(r.get(GPU)).isEqualTo(2000);
    assertThat(r.has("count/pods")).isFalse();
    assertThat(r.has("requests.cpu")).isFalse();
    assertThat(r.has("gpu")).isFalse();
  }

  @Test
  void lessEqual_zeroTreatsMissingScalarAsZero_infinitySkipsIt() {
    Resource req = res("cpu", "1", "pods", "1");
    Resource nodeWithoutPods = res("cpu", "4");
    assertThat(req.lessEqual(nodeWithoutPods, Dimension.ZERO)).isFalse();
    assertThat(req.lessEqual(nodeWithoutPods, Dimension.INFINITY)).isTrue();
    assertThat(res("cpu", "1").lessEqual(res("cpu", "4", GPU, "1"), Dimension.INFINITY))
        .as("rr has a scalar that l lacks: infinity on the left")
        .isFalse();
    assertThat(res("cpu", "1").lessEqual(res("cpu", "4", GPU, "1"), Dimension.ZERO)).isTrue();
  }

  @Test
  void lessEqual_toleratesEpsilon() {
    Resource a = Resource.of(1000.05, 0);
    assertThat(a.lessEqual(Resource.of(1000, 0), Dimension.ZERO)).isTrue();
    assertThat(Resource.of(1000.2, 0).lessEqual(Resource.of(1000, 0), Dimension.ZERO)).isFalse();
  }

  @Test
  void lessEqualWithResourcesName_namesCpuMemoryThenSortedScalars() {
    Resource req = res("cpu", "2", "memory", "2Gi", "b.io/x", "1", "a.io/y", "1");
    assertThat(req.lessEqualWithResourcesName(res("cpu", "1", "memory", "1Gi"), Dimension.ZERO))
        .containsExactly("cpu", "memory", "a.io/y", "b.io/x");
    assertThat(req.lessEqualWithResourcesName(res("cpu", "1", "memory", "1Gi"), Dimension.INFINITY))
        .containsExactly("cpu", "memory");
  }

  @Test
  void lessEqualWithDimension_checksOnlyRequestedDimensionsStrictlyAndSkipsPods() {
    Resource used = res("cpu", "3", "memory", "10Gi", "pods", "50");
    Resource deserved = res("cpu", "3", "memory", "1Gi", "pods", "1");
    Resource cpuOnly = res("cpu", "1", "pods", "1");
    assertThat(used.lessEqualWithDimensionAndResourcesName(deserved, cpuOnly)).isEmpty();
    assertThat(res("cpu", "3.0001").lessEqualWithDimensionAndResourcesName(deserved, cpuOnly))
        .as("strict: no epsilon")
        .containsExactly("cpu");
    assertThat(used.lessEqualWithDimensionAndResourcesName(deserved, res("memory", "1")))
        .containsExactly("memory");
  }

  @Test
  void partlyComparisons() {
    assertThat(
            res("cpu", "1", "memory", "8Gi")
                .lessPartly(res("cpu", "2", "memory", "1Gi"), Dimension.ZERO))
        .isTrue();
    assertThat(
            res("cpu", "3", "memory", "8Gi")
                .lessPartly(res("cpu", "2", "memory", "1Gi"), Dimension.ZERO))
        .isFalse();
    assertThat(res("cpu", "3").lessPartly(res("cpu", "2", GPU, "1"), Dimension.ZERO))
        .as("zero: rr has a scalar l lacks")
        .isTrue();
    assertThat(res("cpu", "3", GPU, "1").lessEqualPartly(res("cpu", "2"), Dimension.INFINITY))
        .isTrue();
    Resource req = res("cpu", "1", "pods", "1");
    assertThat(res("cpu", "2").lessEqualPartlyWithDimension(res("cpu", "2"), req))
        .containsExactly("cpu");
    assertThat(res("cpu", "3").lessEqualPartlyWithDimension(res("cpu", "2"), req)).isEmpty();
    assertThat(
            res("cpu", "3", GPU, "2")
                .greaterPartlyWithDimension(res("cpu", "4", GPU, "1"), res(GPU, "1")))
        .isTrue();
    assertThat(
            res("cpu", "3", GPU, "2")
                .greaterPartlyWithDimension(res("cpu", "4", GPU, "1"), res("cpu", "1")))
        .isFalse();
  }

  @Test
  void zeroFiltered_dropsDimensionsZeroOnBothSides() {
    Resource used = res(GPU, "0");
    Resource deserved = res("cpu", "1");
    Resource req = res(GPU, "1");
    assertThat(Resource.of(0, 0).set(GPU, 0).lessEqualPartlyWithDimension(deserved, req))
        .containsExactly(GPU);
    assertThat(used.lessEqualPartlyWithDimensionZeroFiltered(deserved, req)).isEmpty();
  }

  @Test
  void greaterPartlyWithRelevantDimensions_keepsScalarsPresentInRrEvenAtZero() {
    Resource alloc = res("cpu", "1", GPU, "1");
    Resource deservedWithZeroGpu = res("cpu", "4").set(GPU, 0);
    Resource deservedWithoutGpu = res("cpu", "4");
    Resource victimReq = res("cpu", "1", GPU, "1");
    assertThat(alloc.greaterPartlyWithRelevantDimensions(deservedWithZeroGpu, victimReq)).isTrue();
    assertThat(alloc.greaterPartlyWithRelevantDimensions(deservedWithoutGpu, victimReq)).isFalse();
  }

  @Test
  void exceededPartDiffMinMax() {
    Resource l = res("cpu", "3", "memory", "1Gi", GPU, "2");
    Resource r = res("cpu", "1", "memory", "2Gi");
    Resource ex = Resource.exceededPart(l, r);
    assertThat(ex.milliCpu()).isEqualTo(2000);
    assertThat(ex.memory()).isZero();
    assertThat(ex.get(GPU)).isEqualTo(2000);
    Resource[] d = l.diff(r, Dimension.ZERO);
    assertThat(d[0].milliCpu()).isEqualTo(2000);
    assertThat(d[1].memory()).isEqualTo(1L << 30);
    Resource mn = res("cpu", "4", GPU, "1").minDimension(res("cpu", "2"), Dimension.ZERO);
    assertThat(mn.milliCpu()).isEqualTo(2000);
    assertThat(mn.get(GPU)).isZero();
    Resource kept = res("cpu", "4", GPU, "1").minDimension(res("cpu", "2"), Dimension.INFINITY);
    assertThat(kept.get(GPU)).isEqualTo(1000);
    assertThat(Resource.max(res("cpu", "1"), res("memory", "1Gi", GPU, "1")).get(GPU))
        .isEqualTo(1000);
    assertThat(Resource.share(0, 0)).isZero();
    assertThat(Resource.share(5, 0)).isEqualTo(1);
    assertThat(Resource.share(1, 4)).isEqualTo(0.25);
  }

  @Test
  void isEmpty_ignoresPods_resourceNamesIncludesPods() {
    Resource bestEffort = res("pods", "1");
    assertThat(bestEffort.isEmpty()).isTrue();
    assertThat(bestEffort.resourceNames()).containsExactly("pods");
    assertThat(res("cpu", "100m").isEmpty()).isFalse();
  }

  @Test
  void fitsWithin_matchesLessEqualOnTheSum() {
    Resource idle = res("cpu", "1", "pods", "3");
    Resource releasing = res("cpu", "2", "pods", "1");
    Resource pipelined = res("cpu", "1", "pods", "1");
    Resource req = res("cpu", "2", "pods", "1");
    assertThat(req.fitsWithin(idle, releasing, pipelined)).isTrue();
    assertThat(res("cpu", "2.5").fitsWithin(idle, releasing, pipelined)).isFalse();
    assertThat(req.fitsWithin(idle, releasing, pipelined))
        .isEqualTo(req.lessEqual(idle.copy().add(releasing).sub(pipelined), Dimension.ZERO));
  }

  @Test
  void toList_printsKubernetesQuantities() {
    Map<String, Quantity> list =
        res("cpu", "2500m", "memory", "4Gi", "pods", "3", GPU, "2").toList();
    assertThat(list.get("cpu")).hasToString("2500m");
    assertThat(list.get("memory")).hasToString("4Gi");
    assertThat(list.get("pods")).hasToString("3");
    assertThat(list.get(GPU)).hasToString("2");
  }

  @Test
  void resourceNames_areCpuMemoryPods_thenTheOthersByName_whateverOrderTheyWereFirstSeenIn() {
    // Interned in this order: zz- before aa-, so index order is not name order.
    ResourceNames.indexOf("example.com/zz-order-test");
    ResourceNames.indexOf("example.com/aa-order-test");
    Resource r =
        Resource.fromList(
            Map.of(
                "example.com/zz-order-test", Quantity.of(1),
                "example.com/aa-order-test", Quantity.of(2),
                "cpu", Quantity.of(1),
                "pods", Quantity.of(3)));

    assertThat(r.resourceNames())
        .containsExactly("cpu", "pods", "example.com/aa-order-test", "example.com/zz-order-test");
    assertThat(r.view().resourceNames()).isEqualTo(r.resourceNames());
  }

  @Test
  void copyOf_aReadOnlyFace_isTheCallersOwnAndLeavesTheResourceAlone() {
    Resource node = gpuNode();

    Resource mine = Resource.copyOf(node.view()).add(Resource.of(500, 0));

    assertThat(node.milliCpu()).isEqualTo(2000);
    assertThat(mine.milliCpu()).isEqualTo(2500);
    assertThat(mine.get("nvidia.com/gpu")).isEqualTo(1000);
    assertThat(mine.maxTaskNum()).isEqualTo(110);
  }

  @Test
  void copyOf_aViewOfAnotherImplementation_copiesValuesPresenceAndThePodLimit() {
    Resource source = gpuNode();
    ResourceView foreign =
        (ResourceView)
            java.lang.reflect.Proxy.newProxyInstance(
                ResourceView.class.getClassLoader(),
                new Class<?>[] {ResourceView.class},
                (proxy, method, args) -> method.invoke(source, args));

    Resource copy = Resource.copyOf(foreign);

    assertThat(copy.deepEquals(source)).isTrue();
    assertThat(copy.maxTaskNum()).isEqualTo(110);
    assertThat(copy.valueKey()).isEqualTo(source.valueKey());
    assertThat(source.fits(foreign)).isTrue();
  }

  /** 2 CPUs, 4Gi, one GPU and 110 pods. */
  private static Resource gpuNode() {
    return Resource.fromList(
        Map.of(
            "cpu", Quantity.parse("2"),
            "memory", Quantity.parse("4Gi"),
            "nvidia.com/gpu", Quantity.parse("1"),
            "pods", Quantity.parse("110")));
  }
}
