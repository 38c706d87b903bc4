package dev.caldera.plugins.resourcequota;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.JobEnqueueableFn;
import dev.caldera.api.extension.JobEnqueuedFn;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.ResourceQuota;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.RecordedEvent;
import dev.caldera.testkit.RecordingExtensions;
import dev.caldera.testkit.Resources;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourceQuotaPluginTest {

  private final FakeSession session = new FakeSession();

  private static ResourceQuota quota(String ns, String name, String[] hard, String[] used) {
    return new ResourceQuota(
        ObjectMeta.named(ns, name), Resources.list(hard), Resources.list(used));
  }

  private static String[] of(String... pairs) {
    return pairs;
  }

  private void quotas(ResourceQuota... quotas) {
    session.cluster(new ClusterInfo(null, null, List.of(quotas), null, null));
  }

  private RecordingExtensions open() {
    return RecordingExtensions.open(
        new ResourceQuotaPluginFactory().create(PluginArguments.empty("resourcequota")), session);
  }

  @Test
  void factory_isNamedResourcequotaAndIgnoresArguments() {
    assertThat(new ResourceQuotaPluginFactory().name()).isEqualTo("resourcequota");
    assertThat(
            new ResourceQuotaPluginFactory()
                .create(new PluginArguments("resourcequota", Map.of("unknown", 1), false))
                .name())
        .isEqualTo("resourcequota");
  }

  @Test
  void registersEnqueueableAndEnqueued() {
    assertThat(open().points())
        .containsExactlyInAnyOrder(ExtensionPoint.JOB_ENQUEUEABLE, ExtensionPoint.JOB_ENQUEUED);
  }

  @Test
  void enqueueable_countsUsedAndJobsAdmittedEarlierInTheSession() {
    quotas(
        quota("team-a", "q", of("cpu", "8", "memory", "200Gi"), of("cpu", "2", "memory", "2Gi")));
    FakeJob j1 = session.addJob("team-a/j1").minResources("cpu", "4");
    FakeJob j2 = session.addJob("team-a/j2").minResources("cpu", "4");
    FakeJob small = session.addJob("team-a/small").minResources("cpu", "2");
    RecordingExtensions ext = open();
    JobEnqueueableFn enqueueable = ext.get(ExtensionPoint.JOB_ENQUEUEABLE);
    JobEnqueuedFn enqueued = ext.get(ExtensionPoint.JOB_ENQUEUED);

    assertThat(enqueueable.vote(j1)).isEqualTo(Vote.PERMIT);
    assertThat(enqueueable.vote(j2)).isEqualTo(Vote.PERMIT); // nothing admitted yet
    enqueued.enqueued(j1);
    assertThat(enqueueable.vote(j2)).isEqualTo(Vote.REJECT); // 2 + 4 + 4 > 8
    assertThat(enqueueable.vote(small)).isEqualTo(Vote.PERMIT); // 2 + 4 + 2 = 8

    assertThat(session.events())
        .containsExactly(
            new RecordedEvent(
                "PodGroup",
                "team-a/j2",
                "Normal",
                "Unschedulable",
                "resource quota insufficient, requested: cpu=4, used: cpu=2, limited: cpu=8"));
  }

  @Test
  void enqueueable_matchesResourceNamesExactly() {
    quotas(quota("ns", "q", of("requests.cpu", "1"), of("requests.cpu", "0")));
    FakeJob job = session.addJob("ns/j").minResources("cpu", "100");

    assertThat(open().get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job)).isEqualTo(Vote.PERMIT);
  }

  @Test
  void enqueueable_namesEveryExceededResourceInOrder() {
    quotas(
        quota(
            "ns",
            "q",
            of("memory", "4Gi", "cpu", "2", "nvidia.com/gpu", "1", "pods", "10"),
            of("memory", "1Gi", "cpu", "1500m")));
    FakeJob job =
        session.addJob("ns/j").minResources("nvidia.com/gpu", "2", "memory", "3Gi", "cpu", "1");

    assertThat(open().get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job)).isEqualTo(Vote.REJECT);
    assertThat(session.events())
        .extracting(RecordedEvent::message)
        .containsExactly(
            "resource quota insufficient, requested: cpu=1,nvidia.com/gpu=2, used: cpu=1500m,"
                + " limited: cpu=2,nvidia.com/gpu=1");
  }

  @Test
  void enqueueable_isExactAtTheLimit() {
    quotas(quota("ns", "q", of("memory", "1Gi"), of("memory", "512Mi")));
    FakeJob fits = session.addJob("ns/fits").minResources("memory", "512Mi");
    FakeJob over = session.addJob("ns/over").minResources("memory", "536870913");
    JobEnqueueableFn fn = open().get(ExtensionPoint.JOB_ENQUEUEABLE);

    assertThat(fn.vote(fits)).isEqualTo(Vote.PERMIT);
    assertThat(fn.vote(over)).isEqualTo(Vote.REJECT);
  }

  @Test
  void enqueueable_checksEveryQuotaOfTheNamespaceOnly() {
    quotas(
        quota("ns", "a-loose", of("cpu", "100"), of()),
        quota("ns", "b-tight", of("cpu", "1"), of()),
        quota("other", "none-left", of("cpu", "0"), of()));
    FakeJob job = session.addJob("ns/j").minResources("cpu", "2");
    FakeJob elsewhere = session.addJob("third/j").minResources("cpu", "2");
    FakeJob inOther = session.addJob("other/be");
    JobEnqueueableFn fn = open().get(ExtensionPoint.JOB_ENQUEUEABLE);

    assertThat(fn.vote(job)).isEqualTo(Vote.REJECT);
    assertThat(fn.vote(elsewhere)).isEqualTo(Vote.PERMIT);
    assertThat(fn.vote(inOther)).isEqualTo(Vote.PERMIT); // no minResources
    assertThat(session.events())
        .extracting(RecordedEvent::message)
        .containsExactly("resource quota insufficient, requested: cpu=2, used: , limited: cpu=1");
  }

  @Test
  void enqueueable_quotaWithEmptyStatusHasNoEffect() {
    quotas(quota("ns", "q", of(), of()));
    FakeJob job = session.addJob("ns/j").minResources("cpu", "1000");

    assertThat(open().get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job)).isEqualTo(Vote.PERMIT);
  }

  @Test
  void enqueued_countsPerNamespaceAndIgnoresJobsWithoutMinResources() {
    quotas(quota("ns", "q", of("cpu", "4"), of()));
    FakeJob other = session.addJob("other/big").minResources("cpu", "100");
    FakeJob bestEffort = session.addJob("ns/be");
    FakeJob three = session.addJob("ns/three").minResources("cpu", "3");
    FakeJob one = session.addJob("ns/one").minResources("cpu", "1001m");
    RecordingExtensions ext = open();
    JobEnqueuedFn enqueued = ext.get(ExtensionPoint.JOB_ENQUEUED);

    enqueued.enqueued(other);
    enqueued.enqueued(bestEffort);
    enqueued.enqueued(three);

    assertThat(ext.get(ExtensionPoint.JOB_ENQUEUEABLE).vote(one)).isEqualTo(Vote.REJECT);
  }
}
