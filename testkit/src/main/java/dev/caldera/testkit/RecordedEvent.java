package dev.caldera.testkit;

/** An event a plugin recorded through {@link FakeSession#recordEvent}. */
public record RecordedEvent(String kind, String key, String type, String reason, String message) {}
