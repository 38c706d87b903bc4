package dev.caldera.api.extension;

/** Why a job is not valid for scheduling (Volcano's {@code ValidateResult}). */
public record ValidationResult(boolean pass, String reason, String message) {}
