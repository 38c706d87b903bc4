package dev.caldera.api.extension;

/** A plugin's vote: permit (+1), abstain (0) or reject (−1). */
public enum Vote {
  PERMIT,
  ABSTAIN,
  REJECT
}
