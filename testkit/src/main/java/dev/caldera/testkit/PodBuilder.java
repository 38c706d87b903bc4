package dev.caldera.testkit;

import dev.caldera.api.model.Pod;

/** Builds a {@link Pod}: {@code PodBuilder.pod("ns/p1").label("app", "web").build()}. */
public final class PodBuilder extends AbstractPodBuilder<PodBuilder> {

  private PodBuilder(String key) {
    super(key);
  }

  /** A pod {@code namespace/name} (or a bare name in {@code default}). */
  public static PodBuilder pod(String key) {
    return new PodBuilder(key);
  }

  @Override
  protected PodBuilder self() {
    return this;
  }

  /** The pod. */
  public Pod build() {
    return buildPod("", "Pending");
  }
}
