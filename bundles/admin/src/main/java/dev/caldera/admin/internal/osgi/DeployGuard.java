package dev.caldera.admin.internal.osgi;

import dev.caldera.admin.internal.DeployRules;
import dev.caldera.admin.internal.JarCheck;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.felix.fileinstall.ArtifactInstaller;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * Claims, before FileInstall's own bundle handling sees them, the jars of {@code deploy/} that
 * {@link DeployRules} refuses: FileInstall then neither installs them nor, when they are removed,
 * uninstalls anything. Each refusal is reported once by the {@link BundleAudit}.
 */
@Component(service = ArtifactInstaller.class, property = "service.ranking:Integer=1000")
public final class DeployGuard implements ArtifactInstaller {

  @Reference private BundleAudit audit;

  private BundleContext context;

  public DeployGuard() {}

  DeployGuard(BundleAudit audit, BundleContext context) {
    this.audit = audit;
    this.context = context;
  }

  @Activate
  void activate(BundleContext context) {
    this.context = context;
  }

  @Override
  public boolean canHandle(File file) {
    return refusal(file).isPresent();
  }

  @Override
  public void install(File file) {
    refusal(file).ifPresent(why -> audit.refused(file.toPath(), why));
  }

  @Override
  public void update(File file) {
    install(file);
  }

  @Override
  public void uninstall(File file) {
    audit.forget(file.toPath());
    handBack(file.toPath());
  }

  /**
   * FileInstall lets go of a jar this guard claimed once it changed into one the guard accepts (a
   * jar claimed as damaged while it was still being written, say), and does not look at that file
   * again until it changes: it would stay uninstalled. A later modification time makes FileInstall
   * see it as new and install it.
   */
  private void handBack(Path path) {
    if (!Files.isRegularFile(path) || refusal(path.toFile()).isPresent()) {
      return;
    }
    try {
      long before = Files.getLastModifiedTime(path).toMillis();
      long after = Math.max(System.currentTimeMillis(), before + 1_000);
      Files.setLastModifiedTime(path, FileTime.fromMillis(after));
    } catch (IOException e) {
      // The audit reports a valid jar FileInstall leaves uninstalled.
    }
  }

  private Optional<String> refusal(File file) {
    Path path = file.toPath();
    Path deploy = audit.deploy();
    if (deploy == null
        || !file.getName().endsWith(".jar")
        || !deploy
            .toAbsolutePath()
            .normalize()
            .equals(path.toAbsolutePath().normalize().getParent())) {
      return Optional.empty();
    }
    byte[] jar;
    try {
      jar = Files.readAllBytes(path);
    } catch (IOException e) {
      return Optional.empty();
    }
    if (JarCheck.identity(jar).isPresent()) {
      // A bundle, as far as its manifest goes: claim it if the rest of the jar is damaged.
      Optional<String> damage = DeployRules.damage(path);
      if (damage.isPresent()) {
        return damage;
      }
    }
    List<DeployRules.Installed> installed = new ArrayList<>();
    for (Bundle b : context.getBundles()) {
      if (b.getSymbolicName() != null) {
        installed.add(
            new DeployRules.Installed(b.getSymbolicName(), b.getVersion(), b.getLocation()));
      }
    }
    return DeployRules.refusal(file.getName(), jar, installed, ApiExports.of(context));
  }
}
