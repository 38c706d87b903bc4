package dev.caldera.framework.loop;

import java.time.Instant;

/**
 * A decision where a policy in audit mode disagreed with the enforced ones, as the policy plugin
 * recorded it (its {@code PolicyAudit} event): both decisions and both deciding rules are in the
 * message.
 *
 * @param object the pod ({@code namespace/name}) or queue the decision was about
 * @param kind {@code Pod} or {@code Queue}
 * @param firstSeen the session it was first seen in
 * @param lastSeen the last session it was seen in
 * @param sessions in how many sessions it was seen
 */
public record AuditDisagreement(
    String kind,
    String object,
    String message,
    Instant firstSeen,
    Instant lastSeen,
    long sessions) {}
