package shaper.breaker;

import java.time.Duration;
import java.util.Objects;

/**
 * A consistent, immutable view of one breaker for metrics and the TUI.
 *
 * @param state               current state (an OPEN breaker whose wait has elapsed shows OPEN until the next request)
 * @param failuresInWindow    failures counted in the sliding window right now
 * @param consecutiveFailures failures since the last success
 * @param openTimeout         the open wait that applies to the next trip or the current open period
 * @param probeOutstanding    whether the half-open probe is in flight
 * @param penalty             the slot hold a failure would get now (zero when the breaker is disabled)
 * @param nextProbeIn         while OPEN, the time left until a probe is admitted; otherwise zero
 */
public record BreakerSnapshot(
        BreakerState state,
        int failuresInWindow,
        int consecutiveFailures,
        Duration openTimeout,
        boolean probeOutstanding,
        Duration penalty,
        Duration nextProbeIn) {

    public BreakerSnapshot {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(openTimeout, "openTimeout");
        Objects.requireNonNull(penalty, "penalty");
        Objects.requireNonNull(nextProbeIn, "nextProbeIn");
    }
}
