package dev.caldera.itests.osgi;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/** The activator of a test bundle that cannot start: its class is copied into that bundle. */
public final class ThrowingActivator implements BundleActivator {

  @Override
  public void start(BundleContext context) {
    throw new IllegalStateException("activator says no");
  }

  @Override
  public void stop(BundleContext context) {}
}
