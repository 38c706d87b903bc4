package dev.caldera.sim;

/** How {@link ReportWriter} prints a report. */
public enum ReportFormat {
  /** Human-readable text, one block per session, then a summary. */
  TABLE,
  /** One JSON document. */
  JSON,
  /** The JSON document's tree, as YAML. */
  YAML
}
