package dev.caldera.docs;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Plugin;
import dev.caldera.framework.ExtensionTable;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.RecordingExtensions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The extension points a plugin registers when it is opened on an empty session (no nodes, queues
 * or jobs; the shipped policies as the cluster's policy sources), and each point's contract from
 * the first sentence of its function type's Javadoc in {@code bundles/api}, and its gates from the
 * framework's {@link ExtensionTable}, the table sessions dispatch by.
 */
final class RecordedRegistrations implements ExtensionPointSource {

  private final Path root;
  private final Map<String, String> policies;

  RecordedRegistrations(Path root, Map<String, String> policies) {
    this.root = root;
    this.policies = policies;
  }

  @Override
  public List<Registration> registrations(Plugin plugin) {
    FakeSession session =
        new FakeSession().cluster(new ClusterInfo(null, null, null, null, null, policies));
    RecordingExtensions recorded = RecordingExtensions.open(plugin, session);
    List<Registration> out = new ArrayList<>();
    for (ExtensionPoint<?> point : ExtensionPoint.ALL) {
      if (recorded.has(point)) {
        out.add(
            new Registration(point, recorded.all(point).size(), recorded.locality(point) != null));
      }
    }
    return out;
  }

  @Override
  public String contract(ExtensionPoint<?> point) {
    Class<?> type = point.type();
    Path source =
        root.resolve("bundles/api/src/main/java")
            .resolve(type.getName().replace('.', '/') + ".java");
    try {
      String comment = Javadoc.ofType(Files.readString(source), type.getSimpleName());
      return Javadoc.cell(
          Javadoc.firstSentence(Javadoc.markdown(Javadoc.description(comment), type)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String gates(ExtensionPoint<?> point) {
    return ExtensionTable.of(point).gates().stream()
        .sorted()
        .map(f -> "`" + f.key() + "`")
        .collect(Collectors.joining(" or "));
  }
}
