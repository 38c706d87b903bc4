package dev.caldera.api;

/**
 * A plugin argument has the wrong type or value; the message names the key and what was expected.
 */
public final class PluginArgumentException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String key;

  public PluginArgumentException(String key, String message) {
    super(message);
    this.key = key;
  }

  /** The argument key at fault. */
  public String key() {
    return key;
  }
}
