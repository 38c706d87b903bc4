package dev.caldera.framework.internal.session;

import dev.caldera.api.extension.NodeLocality;
import java.util.concurrent.atomic.LongAdder;

/**
 * One function a plugin registered for an extension point, as a session holds it once frozen: the
 * plugin that registered it (named in failures and blockers), the function, the clock its sampled
 * calls add to (null for points the session does not time) and the node locality it was registered
 * with (null: none).
 */
record Registered<T>(String plugin, T fn, LongAdder clock, NodeLocality locality) {}
