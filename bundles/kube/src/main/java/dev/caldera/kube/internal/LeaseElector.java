package dev.caldera.kube.internal;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Leader election on a {@code coordination.k8s.io/v1} Lease with fabric8's {@code LeaderElector}.
 *
 * <p>fabric8 stops leading when a renewal has not succeeded for the renew deadline, but only when
 * its loop gets to run; {@link #isLeader()} does not rely on that: it also turns false once the
 * last successful renewal is older than the renew deadline, measured from before the renewal read
 * the lease. With a renew deadline shorter than the lease duration, a replica therefore stops
 * scheduling before any other replica may take the lease. After losing the lease the elector starts
 * again as a candidate, until {@link #close()}.
 */
public final class LeaseElector implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(LeaseElector.class.getName());

  /** What the run loop hears about leadership. */
  public interface Callbacks {
    void startedLeading();

    void stoppedLeading();

    void newLeader(String identity);

    /**
     * A lease request got no answer, a server error, or the 403 of a server still starting: the API
     * server was out of reach, and what the informers hold may be behind it.
     */
    default void serverUnreachable() {}
  }

  private final KubernetesClient client;
  private final String namespace;
  private final String name;
  private final String identity;
  private final Duration leaseDuration;
  private final Duration renewDeadline;
  private final Duration retryPeriod;
  private final Callbacks callbacks;
  private final LongSupplier nanoClock;
  private final Object lock = new Object();
  private volatile boolean leading;
  private volatile long lastRenewNanos;
  private volatile String leader;
  private volatile String lastError;
  private volatile boolean failing;
  private volatile long unreachableNanos;
  private volatile boolean unreachableSeen;
  private volatile String observedHolder;
  private volatile String observedRenewTime;
  private volatile long observedNanos;
  private final LongAdder errors = new LongAdder();
  private CompletableFuture<?> running;
  private boolean closed;

  public LeaseElector(
      KubernetesClient client,
      String namespace,
      String name,
      String identity,
      Duration leaseDuration,
      Duration renewDeadline,
      Duration retryPeriod,
      Callbacks callbacks) {
    this(
        client,
        namespace,
        name,
        identity,
        leaseDuration,
        renewDeadline,
        retryPeriod,
        callbacks,
        System::nanoTime);
  }

  LeaseElector(
      KubernetesClient client,
      String namespace,
      String name,
      String identity,
      Duration leaseDuration,
      Duration renewDeadline,
      Duration retryPeriod,
      Callbacks callbacks,
      LongSupplier nanoClock) {
    if (renewDeadline.compareTo(leaseDuration) >= 0) {
      throw new IllegalArgumentException(
          "the renew deadline ("
              + renewDeadline
              + ") must be shorter than the lease duration ("
              + leaseDuration
              + ")");
    }
    if (retryPeriod.compareTo(renewDeadline) >= 0) {
      throw new IllegalArgumentException(
          "the retry period ("
              + retryPeriod
              + ") must be shorter than the renew deadline ("
              + renewDeadline
              + ")");
    }
    this.client = client;
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.name = Objects.requireNonNull(name, "name");
    this.identity = Objects.requireNonNull(identity, "identity");
    this.leaseDuration = leaseDuration;
    this.renewDeadline = renewDeadline;
    this.retryPeriod = retryPeriod;
    this.callbacks = callbacks;
    this.nanoClock = nanoClock;
  }

  /** Starts campaigning; returns at once. */
  public void start() {
    synchronized (lock) {
      if (closed || running != null) {
        return;
      }
      campaign();
    }
  }

  /** Whether this replica holds the lease and renewed it within the renew deadline. */
  public boolean isLeader() {
    return leading && nanoClock.getAsLong() - lastRenewNanos < renewDeadline.toNanos();
  }

  /** The identity of the leader last observed, or null. */
  public String leader() {
    return leader;
  }

  public String identity() {
    return identity;
  }

  /** {@code namespace/name} of the lease. */
  public String lease() {
    return namespace + "/" + name;
  }

  /**
   * Why the last attempt to read, take or renew the lease failed (e.g. {@code HTTP 403 Forbidden:
   * ... cannot patch resource "leases"}), or null when the last attempt succeeded: this replica
   * then holds the lease or saw another replica hold it.
   */
  public String failure() {
    return failing ? lastError : null;
  }

  /**
   * How long after the API server last failed to answer (or answered 5xx) an HTTP 403 is read as
   * the server starting: a restarted kube-apiserver answers 403 until it has loaded its RBAC
   * policy, a few seconds. A 403 that lasts longer is the RBAC it says it is.
   */
  static final Duration STARTING = Duration.ofSeconds(30);

  /**
   * Who held the lease when it expired without being renewed (the holder died), or null: the record
   * last read, by another replica, has not changed for a lease duration (measured here, as
   * client-go does, not from the holder's clock). Until this replica's next attempt takes it (one
   * retry period at most) nobody leads.
   */
  public String expiredHolder() {
    String holder = observedHolder;
    if (leading || holder == null || holder.isEmpty() || holder.equals(identity)) {
      return null;
    }
    return nanoClock.getAsLong() - observedNanos >= leaseDuration.toNanos() ? holder : null;
  }

  /** Failed attempts to read, take or renew the lease since start. */
  public long errors() {
    return errors.sum();
  }

  /** Stops campaigning and releases the lease if held, so another replica takes over at once. */
  @Override
  public void close() {
    CompletableFuture<?> r;
    synchronized (lock) {
      closed = true;
      r = running;
      running = null;
    }
    leading = false;
    if (r != null) {
      r.cancel(true);
    }
  }

  private void campaign() {
    LeaderElectionConfig config =
        new LeaderElectionConfigBuilder()
            .withName(name)
            .withLock(new RenewTrackingLock(new LeaseLock(namespace, name, identity)))
            .withLeaseDuration(leaseDuration)
            .withRenewDeadline(renewDeadline)
            .withRetryPeriod(retryPeriod)
            .withReleaseOnCancel()
            .withLeaderCallbacks(
                new LeaderCallbacks(this::onStart, this::onStop, this::onNewLeader))
            .build();
    CompletableFuture<?> f = client.leaderElector().withConfig(config).build().start();
    running = f;
    f.whenComplete(
        (v, t) -> {
          leading = false;
          synchronized (lock) {
            if (closed || running != f) {
              return;
            }
            running = null;
          }
          // Lost the lease (or could not renew it): stand again after a retry period.
          CompletableFuture.delayedExecutor(retryPeriod.toMillis(), TimeUnit.MILLISECONDS)
              .execute(
                  () -> {
                    synchronized (lock) {
                      if (!closed && running == null) {
                        campaign();
                      }
                    }
                  });
        });
  }

  private void onStart() {
    leading = true;
    LOG.log(
        Level.INFO, () -> identity + " is now the leader (lease " + namespace + "/" + name + ")");
    safely(callbacks::startedLeading);
  }

  private void onStop() {
    boolean was = leading;
    leading = false;
    if (was) {
      LOG.log(Level.INFO, () -> identity + " stopped leading");
    }
    safely(callbacks::stoppedLeading);
  }

  private void onNewLeader(String id) {
    leader = id;
    safely(() -> callbacks.newLeader(id));
  }

  private static void safely(Runnable r) {
    try {
      r.run();
    } catch (RuntimeException e) {
      LOG.log(Level.ERROR, "leader election callback failed", e);
    }
  }

  /**
   * Remembers when a successful renewal started: just before the lease was read, right after
   * fabric8 took the renew time it writes into the lease. The local deadline therefore trails the
   * lease's renew time only by that gap, far less than the lease duration minus the deadline.
   */
  private final class RenewTrackingLock implements Lock {
    private final Lock delegate;
    private long readAt;

    RenewTrackingLock(Lock delegate) {
      this.delegate = delegate;
    }

    @Override
    public LeaderElectionRecord get(KubernetesClient c) {
      readAt = nanoClock.getAsLong();
      LeaderElectionRecord r;
      try {
        r = delegate.get(c);
      } catch (RuntimeException e) {
        failed("read", e);
        throw e;
      }
      observe(r);
      if (r != null && r.getHolderIdentity() != null && !identity.equals(r.getHolderIdentity())) {
        ok(); // another replica holds it: this attempt ends here, without a write
      }
      return r;
    }

    @Override
    public void create(KubernetesClient c, LeaderElectionRecord r) {
      try {
        delegate.create(c, r);
      } catch (RuntimeException e) {
        failed("create", e);
        throw e;
      }
      renewed(r);
    }

    @Override
    public void update(KubernetesClient c, LeaderElectionRecord r) {
      try {
        delegate.update(c, r);
      } catch (RuntimeException e) {
        failed("renew", e);
        throw e;
      }
      renewed(r);
    }

    private void observe(LeaderElectionRecord r) {
      String holder = r == null ? null : r.getHolderIdentity();
      String renewTime = r == null || r.getRenewTime() == null ? null : r.getRenewTime().toString();
      if (!Objects.equals(holder, observedHolder)
          || !Objects.equals(renewTime, observedRenewTime)) {
        observedHolder = holder;
        observedRenewTime = renewTime;
        observedNanos = readAt;
      }
    }

    private void renewed(LeaderElectionRecord r) {
      if (identity.equals(r.getHolderIdentity())) {
        lastRenewNanos = readAt;
      }
      ok();
    }

    private void ok() {
      failing = false;
    }

    private void failed(String what, RuntimeException e) {
      errors.increment();
      int code = ApiErrors.code(e);
      long now = nanoClock.getAsLong();
      String text;
      if (code == 403 && unreachableSeen && now - unreachableNanos < STARTING.toNanos()) {
        callbacks.serverUnreachable();
        text =
            "the API server is starting (it answers HTTP 403 until it has loaded its RBAC"
                + " policy): cannot "
                + what
                + " the lease "
                + lease()
                + " yet";
      } else {
        if (code == 0 || code >= 500) {
          unreachableSeen = true;
          unreachableNanos = now;
          callbacks.serverUnreachable();
        }
        text = "cannot " + what + " the lease " + lease() + ": " + ApiErrors.describe(e);
      }
      if (!text.equals(lastError) || !failing) {
        LOG.log(Level.WARNING, text);
      }
      lastError = text;
      failing = true;
    }

    @Override
    public String identity() {
      return delegate.identity();
    }

    @Override
    public String describe() {
      return delegate.describe();
    }
  }
}
