package dev.caldera.api.info;

/** PodGroup phases as Volcano writes them. */
public enum PodGroupPhase {
  Pending,
  Inqueue,
  Running,
  Unknown,
  Completed;

  /** Parses a phase; empty or unknown text is Pending. */
  public static PodGroupPhase parse(String text) {
    if (text == null) {
      return Pending;
    }
    for (PodGroupPhase p : values()) {
      if (p.name().equals(text)) {
        return p;
      }
    }
    return Pending;
  }
}
