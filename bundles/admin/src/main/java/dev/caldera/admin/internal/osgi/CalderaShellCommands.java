package dev.caldera.admin.internal.osgi;

import dev.caldera.admin.internal.Metrics;
import dev.caldera.admin.internal.ShellCommands;
import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.loop.SchedulerMonitor;
import java.util.List;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

/**
 * The Gogo shell commands {@code caldera:plugins}, {@code caldera:conf}, {@code caldera:policies}
 * and {@code caldera:sessions [N]}.
 */
@Component(
    service = CalderaShellCommands.class,
    property = {
      "osgi.command.scope=caldera",
      "osgi.command.function=plugins",
      "osgi.command.function=conf",
      "osgi.command.function=policies",
      "osgi.command.function=sessions"
    })
public final class CalderaShellCommands {

  @Reference private PluginRegistry registry;
  @Reference private BundleAudit audit;

  @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
  private volatile SchedulerMonitor monitor;

  private ShellCommands commands;

  @Activate
  void activate(BundleContext context) {
    commands =
        new ShellCommands(
            new OsgiBackend(
                context,
                registry,
                () -> monitor,
                List::of,
                audit,
                audit.deploy(),
                new Metrics(false)));
  }

  /** Plugins: name, bundle, version, state, sessions served. */
  public String plugins() {
    return commands.plugins();
  }

  /** The conf in force. */
  public String conf() {
    return commands.conf();
  }

  /** The policies in force. */
  public String policies() {
    return commands.policies();
  }

  /** The last 10 sessions. */
  public String sessions() {
    return commands.sessions(10);
  }

  /** The last {@code n} sessions. */
  public String sessions(int n) {
    return commands.sessions(n);
  }
}
