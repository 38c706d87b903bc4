package dev.caldera.itests.osgi;

import java.util.concurrent.TimeUnit;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/**
 * The activator of a test bundle whose start lasts until the test sets the system property {@link
 * #RELEASE} (at most a minute): its class is copied into that bundle.
 */
public final class WaitingActivator implements BundleActivator {

  static final String RELEASE = "itest.waiting-activator.release";

  @Override
  public void start(BundleContext context) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (System.getProperty(RELEASE) == null && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
  }

  @Override
  public void stop(BundleContext context) {}
}
