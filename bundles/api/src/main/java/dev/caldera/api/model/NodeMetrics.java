package dev.caldera.api.model;

import java.time.Instant;

/** Real node usage in percent, as the usage plugin reads it. */
public record NodeMetrics(double cpuPercent, double memoryPercent, Instant updated) {}
