package dev.caldera.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.JobOrderFn;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Pod;
import dev.caldera.api.resource.ResourceNames;
import org.junit.jupiter.api.Test;

class FakeSessionTest {

  @Test
  void nodeAccounting_followsPlacedTasks() {
    FakeSession s = new FakeSession();
    FakeNode n = s.addNode("n1").allocatable("cpu", "4", "memory", "8Gi", "pods", "110");
    FakeJob j = s.addJob("ns/pg1");
    j.task("p1").requests("cpu", "1", "memory", "1Gi").status(TaskStatus.RUNNING).on(n);
    j.task("p2").requests("cpu", "2").status(TaskStatus.RELEASING).on(n);
    j.task("p3").requests("cpu", "500m").status(TaskStatus.PIPELINED).on(n);
    j.task("p4").requests("cpu", "3").status(TaskStatus.SUCCEEDED).on(n);

    assertThat(n.idle().milliCpu()).isEqualTo(1000);
    assertThat(n.idle().get(ResourceNames.PODS_INDEX)).isEqualTo(108);
    assertThat(n.releasing().milliCpu()).isEqualTo(2000);
    assertThat(n.pipelined().milliCpu()).isEqualTo(500);
    assertThat(n.futureIdle().milliCpu()).isEqualTo(2500);
    assertThat(n.taskCount()).isEqualTo(3);
    assertThat(s.totalResource().milliCpu()).isEqualTo(4000);
  }

  @Test
  void jobCounts_followVolcanoDefinitions() {
    FakeJob j = new FakeJob("ns/pg1").minMember(3);
    j.task("a").requests("cpu", "1").status(TaskStatus.RUNNING);
    j.task("b").requests("cpu", "1").status(TaskStatus.SUCCEEDED);
    j.task("c").requests("cpu", "1").status(TaskStatus.PIPELINED);
    j.task("d").status(TaskStatus.PENDING); // best effort
    j.task("e").requests("cpu", "1").status(TaskStatus.FAILED);

    assertThat(j.readyTaskNum()).isEqualTo(2);
    assertThat(j.waitingTaskNum()).isEqualTo(1);
    assertThat(j.pendingBestEffortTaskNum()).isEqualTo(1);
    assertThat(j.validTaskNum()).isEqualTo(4);
    assertThat(j.isReady()).isTrue();
    assertThat(j.isStarving()).isFalse();
    assertThat(j.allocated().milliCpu()).isEqualTo(1000);
    assertThat(j.totalRequest().get(ResourceNames.PODS_INDEX)).isEqualTo(5);
  }

  @Test
  void checkTaskReady_countsRolesAgainstMinTaskMember() {
    FakeJob j = new FakeJob("ns/pg1").minMember(2).minTaskMember("ps", 1).minTaskMember("w", 1);
    j.task("ps-0").role("ps").requests("cpu", "1").status(TaskStatus.RUNNING);
    j.task("w-0").role("w").requests("cpu", "1").status(TaskStatus.PIPELINED);

    assertThat(j.checkTaskValid()).isTrue();
    assertThat(j.checkTaskReady()).isFalse();
    assertThat(j.checkTaskPipelined()).isTrue();
  }

  @Test
  void inqueueResources_isMinimumNotYetAllocated() {
    FakeJob j = new FakeJob("ns/pg1").minResources("cpu", "3", "memory", "1Gi");
    j.task("a").requests("cpu", "1", "memory", "2Gi").status(TaskStatus.RUNNING);

    assertThat(j.inqueueResources().milliCpu()).isEqualTo(2000);
    assertThat(j.inqueueResources().memory()).isZero();
    assertThat(j.elasticResources().memory()).isEqualTo(1024L * 1024 * 1024);
  }

  @Test
  void pod_carriesSchedulingFields() {
    FakeNode n = new FakeNode("n1");
    FakeTask t =
        new FakeTask("ns/p")
            .label("app", "web")
            .nodeSelector("zone", "a")
            .hostPort(8080)
            .tolerates("k", "v", "NoSchedule")
            .requiredPodAntiAffinity("kubernetes.io/hostname", "app", "web")
            .spread(1, "zone", "DoNotSchedule", "app", "web")
            .status(TaskStatus.RUNNING)
            .on(n);
    Pod pod = t.pod();

    assertThat(pod.nodeName()).isEqualTo("n1");
    assertThat(pod.phase()).isEqualTo("Running");
    assertThat(pod.metadata().labels()).containsEntry("app", "web");
    assertThat(pod.nodeSelector()).containsEntry("zone", "a");
    assertThat(pod.containers().get(0).ports().get(0).hostPort()).isEqualTo(8080);
    assertThat(pod.tolerations()).hasSize(1);
    assertThat(pod.podAntiAffinity().required().get(0).topologyKey())
        .isEqualTo("kubernetes.io/hostname");
    assertThat(pod.topologySpreadConstraints().get(0).maxSkew()).isEqualTo(1);
    assertThat(t.priority()).isEqualTo(1);
    assertThat(t.preemptable()).isTrue();
  }

  @Test
  void lookups_returnNullForUnknownNames() {
    FakeSession s = new FakeSession();
    s.addJob("ns/pg1");
    assertThat(s.job("ns/pg1")).isNotNull();
    assertThat(s.job("ns/missing")).isNull();
    assertThat(s.node("n1")).isNull();
    assertThat(s.queue("q1")).isNull();
  }

  @Test
  void recordingExtensions_returnsWhatThePluginRegistered() {
    JobOrderFn fn = (l, r) -> 7;
    Plugin plugin =
        new Plugin() {
          @Override
          public String name() {
            return "test";
          }

          @Override
          public void onSessionOpen(Session session, Extensions extensions) {
            extensions.add(ExtensionPoint.JOB_ORDER, fn);
          }
        };
    RecordingExtensions ext = RecordingExtensions.open(plugin, new FakeSession());

    assertThat(ext.get(ExtensionPoint.JOB_ORDER)).isSameAs(fn);
    assertThat(ext.has(ExtensionPoint.QUEUE_ORDER)).isFalse();
    assertThat(ext.points()).containsExactly(ExtensionPoint.JOB_ORDER);
  }
}
