package shaper.observe;

/**
 * How an exchange ended, as its record says.
 *
 * @param status     the status committed to the client, 0 when none
 * @param provenance overrides the reason's own provenance when not null (a relayed upstream
 *                   error status is {@link Provenance#UPSTREAM_HTTP} though it completed)
 */
public record ExchangeEnding(int status, Outcome outcome, EndReason reason, Provenance provenance) {
}
