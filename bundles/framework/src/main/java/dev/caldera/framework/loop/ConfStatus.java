package dev.caldera.framework.loop;

import java.time.Instant;
import java.util.List;

/**
 * The scheduler conf in force.
 *
 * @param path the watched file
 * @param text the text of the conf in force, or null when no valid conf was ever read
 * @param loadedAt when that text was accepted
 * @param lastError why the file's current content was refused, or null when it is the one in force
 * @param actions the actions in force, in order
 * @param plugins the plugins the tiers name, in order of first appearance
 */
public record ConfStatus(
    String path,
    String text,
    Instant loadedAt,
    String lastError,
    List<String> actions,
    List<String> plugins) {

  public ConfStatus {
    actions = List.copyOf(actions);
    plugins = List.copyOf(plugins);
  }
}
