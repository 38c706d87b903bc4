package dev.caldera.runtime;

import dev.caldera.admin.internal.AdminBackend;
import dev.caldera.admin.internal.BundleInfo;
import dev.caldera.admin.internal.PluginInfo;
import dev.caldera.framework.internal.loop.LoopFactory;
import dev.caldera.framework.loop.SchedulerMonitor;
import java.util.List;
import java.util.Optional;

/**
 * The admin API's backend over a loop a test started: its monitor, and no plugins or bundles to
 * list or change. A test adds what else it serves (the queues' insight, queue commands).
 */
class LoopBackend implements AdminBackend {

  private final LoopFactory.Running running;

  LoopBackend(LoopFactory.Running running) {
    this.running = running;
  }

  @Override
  public Optional<SchedulerMonitor> monitor() {
    return Optional.of(running.monitor());
  }

  @Override
  public List<PluginInfo> plugins() {
    return List.of();
  }

  @Override
  public List<BundleInfo> bundles() {
    return List.of();
  }

  @Override
  public BundleInfo install(String fileName, byte[] jar) {
    throw new UnsupportedOperationException();
  }

  @Override
  public BundleInfo uninstall(String name) {
    throw new UnsupportedOperationException();
  }
}
