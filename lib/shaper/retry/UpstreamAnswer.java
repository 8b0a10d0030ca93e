package shaper.retry;

import java.time.Instant;
import java.util.Objects;

/**
 * What one attempt's answer showed the retry policy: its status, its header fields and the start of
 * its decoded body, as they arrived.
 *
 * @param status     the upstream status, 0 when there was no response (a transport error or per-call timeout)
 * @param headers    response headers; {@link HeaderLookup#none()} for status 0
 * @param bodyPrefix the start of the decompressed response body (only {@link ErrorWording#MAX_SCAN_BYTES}
 *                   are read); empty when not read or status 0, never null
 * @param receivedAt when the response headers arrived
 */
public record UpstreamAnswer(int status, HeaderLookup headers, byte[] bodyPrefix, Instant receivedAt) {
    public UpstreamAnswer {
        Objects.requireNonNull(headers, "headers");
        bodyPrefix = bodyPrefix == null ? new byte[0] : bodyPrefix;
        Objects.requireNonNull(receivedAt, "receivedAt");
    }

    /** No response at all, noticed at {@code at}. */
    public static UpstreamAnswer none(Instant at) {
        return new UpstreamAnswer(0, HeaderLookup.none(), new byte[0], at);
    }
}
