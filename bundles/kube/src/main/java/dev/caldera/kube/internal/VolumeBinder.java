package dev.caldera.kube.internal;

import dev.caldera.api.extension.VolumeBinding;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.PersistentVolume;
import dev.caldera.api.model.PersistentVolumeClaim;
import dev.caldera.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Settles a pod's claims before its bind, as kube-scheduler's volume binding PreBind does: a chosen
 * volume gets the claim in {@code spec.claimRef}; a claim to provision gets the {@code
 * volume.kubernetes.io/selected-node} annotation; then the pod waits, off every thread, until the
 * cache shows each claim bound (the cluster's volume controllers and provisioner do that), or fails
 * after the bind timeout.
 *
 * <p>The cache is updated first, so the next session already sees the volume reserved and the
 * claim's node selected; a failed write puts the informer's state back.
 */
final class VolumeBinder {

  /** kube-scheduler's default {@code bindTimeoutSeconds}. */
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(600);

  private static final String BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller";
  private static final long POLL_MILLIS = 100;

  private final KubernetesClient client;
  private final ClusterCache cache;
  private final Informers informers;
  private final WriteQueue writes;
  private final Clock clock;
  private volatile Duration timeout = DEFAULT_TIMEOUT;

  VolumeBinder(
      KubernetesClient client,
      ClusterCache cache,
      Informers informers,
      WriteQueue writes,
      Clock clock) {
    this.client = client;
    this.cache = cache;
    this.informers = informers;
    this.writes = writes;
    this.clock = clock;
  }

  /** How long a pod waits for its claims to be bound before its bind fails. */
  void setTimeout(Duration timeout) {
    this.timeout = timeout;
  }

  /**
   * Writes the volume decisions and completes when every claim of {@code volumes} is bound;
   * completes exceptionally when a write fails for good, a claim is gone, or the timeout passes.
   */
  CompletableFuture<Void> settle(
      Pod pod, String node, List<VolumeBinding> volumes, BooleanSupplier gate) {
    List<CompletableFuture<Void>> written = new ArrayList<>();
    for (VolumeBinding b : volumes) {
      written.add(b.provision() ? selectNode(b.claim(), node, gate) : reserve(b, gate));
    }
    Instant deadline = clock.instant().plus(timeout);
    return CompletableFuture.allOf(written.toArray(CompletableFuture[]::new))
        .thenCompose(v -> awaitBound(pod, volumes, deadline));
  }

  private CompletableFuture<Void> reserve(VolumeBinding b, BooleanSupplier gate) {
    PersistentVolumeClaim claim = cache.claim(b.claim());
    PersistentVolume volume = cache.volume(b.volume());
    if (claim == null || volume == null) {
      return CompletableFuture.failedFuture(
          new IllegalStateException(
              (claim == null ? "claim " + b.claim() : "volume " + b.volume()) + " is gone"));
    }
    cache.putVolume(volume.boundTo(claim));
    Map<String, Object> claimRef = new LinkedHashMap<>();
    claimRef.put("apiVersion", "v1");
    claimRef.put("kind", "PersistentVolumeClaim");
    claimRef.put("namespace", claim.namespace());
    claimRef.put("name", claim.name());
    claimRef.put("uid", claim.metadata().uid());
    String patch =
        json(
            Map.of(
                "metadata", Map.of("annotations", Map.of(BOUND_BY_CONTROLLER, "yes")),
                "spec", Map.of("claimRef", claimRef)));
    return writes
        .submit(
            "pv:" + b.volume(),
            () -> {
              checkGate(gate);
              // On a named stub, so that fabric8 sends the patch without reading the object first.
              client
                  .persistentVolumes()
                  .resource(
                      new io.fabric8.kubernetes.api.model.PersistentVolumeBuilder()
                          .withNewMetadata()
                          .withName(b.volume())
                          .endMetadata()
                          .build())
                  .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
            })
        .whenComplete(
            (v, t) -> {
              if (t != null) {
                cache.putVolume(volume);
              }
            });
  }

  private CompletableFuture<Void> selectNode(String claimKey, String node, BooleanSupplier gate) {
    PersistentVolumeClaim claim = cache.claim(claimKey);
    if (claim == null) {
      return CompletableFuture.failedFuture(
          new IllegalStateException("claim " + claimKey + " is gone"));
    }
    cache.putClaim(
        new PersistentVolumeClaim(
            annotated(claim.metadata(), PersistentVolumeClaim.SELECTED_NODE_ANNOTATION, node),
            claim.storageClassName(),
            claim.accessModes(),
            claim.request(),
            claim.volumeName(),
            claim.selector(),
            claim.phase(),
            claim.volumeMode()));
    String patch =
        json(
            Map.of(
                "metadata",
                Map.of(
                    "annotations", Map.of(PersistentVolumeClaim.SELECTED_NODE_ANNOTATION, node))));
    return writes
        .submit(
            "pvc:" + claimKey,
            () -> {
              checkGate(gate);
              client
                  .persistentVolumeClaims()
                  .resource(
                      new io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder()
                          .withNewMetadata()
                          .withNamespace(claim.namespace())
                          .withName(claim.name())
                          .endMetadata()
                          .build())
                  .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
            })
        .whenComplete(
            (v, t) -> {
              if (t != null) {
                informers.resyncClaim(claimKey);
              }
            });
  }

  private CompletableFuture<Void> awaitBound(
      Pod pod, List<VolumeBinding> volumes, Instant deadline) {
    List<String> unbound = new ArrayList<>();
    for (VolumeBinding b : volumes) {
      PersistentVolumeClaim claim = cache.claim(b.claim());
      if (claim == null) {
        return CompletableFuture.failedFuture(
            new IllegalStateException("claim " + b.claim() + " is gone"));
      }
      if (!claim.bound()) {
        unbound.add(b.claim());
      }
    }
    if (unbound.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    if (!clock.instant().isBefore(deadline)) {
      return CompletableFuture.failedFuture(
          new IllegalStateException(
              "claims "
                  + String.join(", ", unbound)
                  + " of pod "
                  + pod.key()
                  + " not bound within "
                  + timeout.toSeconds()
                  + "s"));
    }
    Executor later = CompletableFuture.delayedExecutor(POLL_MILLIS, TimeUnit.MILLISECONDS);
    return CompletableFuture.supplyAsync(() -> null, later)
        .thenCompose(v -> awaitBound(pod, volumes, deadline));
  }

  private static ObjectMeta annotated(ObjectMeta m, String key, String value) {
    Map<String, String> annotations = new LinkedHashMap<>(m.annotations());
    annotations.put(key, value);
    return new ObjectMeta(
        m.name(),
        m.namespace(),
        m.uid(),
        m.creationTimestamp(),
        m.deletionTimestamp(),
        m.labels(),
        annotations,
        m.ownerReferences());
  }

  private static void checkGate(BooleanSupplier gate) {
    if (!gate.getAsBoolean()) {
      throw new IllegalStateException("not the leader");
    }
  }

  private String json(Object o) {
    return client.getKubernetesSerialization().asJson(o);
  }
}
