package dev.caldera.load;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Watches the run's namespace (an informer) and notes, in {@link PodTimes}, when each pod was first
 * seen with {@code spec.nodeName} set. The time is taken when the informer hands the event over, so
 * it includes the API server's and the watch's delay, as a user's {@code kubectl get -w} would.
 */
final class BindWatch implements AutoCloseable {

  private final SharedIndexInformer<Pod> informer;

  private BindWatch(SharedIndexInformer<Pod> informer) {
    this.informer = informer;
  }

  /** Starts watching and waits until the first list is in. */
  static BindWatch start(
      KubernetesClient client, String namespace, PodTimes times, Duration syncTimeout)
      throws LoadException, InterruptedException {
    ResourceEventHandler<Pod> handler =
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(Pod p) {
            seen(p, times);
          }

          @Override
          public void onUpdate(Pod old, Pod p) {
            seen(p, times);
          }

          @Override
          public void onDelete(Pod p, boolean deletedFinalStateUnknown) {}
        };
    SharedIndexInformer<Pod> informer =
        client.pods().inNamespace(namespace).runnableInformer(0).addEventHandler(handler);
    try {
      informer.start().toCompletableFuture().get(syncTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      informer.close();
      throw new LoadException(
          "cannot watch the pods of "
              + namespace
              + ": "
              + Errors.describe(
                  e instanceof java.util.concurrent.ExecutionException ? e.getCause() : e),
          e);
    }
    return new BindWatch(informer);
  }

  private static void seen(Pod p, PodTimes times) {
    long now = System.nanoTime();
    String node = p.getSpec() == null ? null : p.getSpec().getNodeName();
    if (node != null && !node.isEmpty()) {
      times.seenBound(p.getMetadata().getName(), now);
    }
  }

  /** How many pods the watch holds now. */
  int pods() {
    return informer.getStore().list().size();
  }

  @Override
  public void close() {
    informer.close();
  }
}
