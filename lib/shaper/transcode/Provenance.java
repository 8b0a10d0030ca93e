package shaper.transcode;

/**
 * Where a transcoded exchange's outcome came from (the spec's failure taxonomy). Exactly one per
 * exchange; {@link #upstreamFailure()} is what the circuit breaker and the failure hold count.
 */
public enum Provenance {
    /** Success, or an upstream HTTP status relayed in the client's dialect (its own class decides). */
    UPSTREAM_HTTP(false),
    /** No usable upstream response (connect, reset, timeout). */
    UPSTREAM_TRANSPORT_ERROR(true),
    /** The upstream body or stream broke the wire contract. */
    UPSTREAM_BODY_ERROR(true),
    /** The client left; neutral unless an upstream failure was already definitive. */
    CLIENT_ABORT(false),
    /** Writing to the client failed. */
    DOWNSTREAM_WRITE_ERROR(false),
    /** The client request could not be converted (malformed, or a rejected loss). */
    LOCAL_REQUEST_CONVERSION_ERROR(false),
    /** Upstream output the client dialect cannot carry. */
    LOCAL_RESPONSE_CONVERSION_ERROR(false),
    /** A locally generated stream check failed (a bound on generated frames or state). */
    LOCAL_STREAM_VALIDATION_ERROR(false);

    private final boolean upstreamFailure;

    Provenance(boolean upstreamFailure) {
        this.upstreamFailure = upstreamFailure;
    }

    public boolean upstreamFailure() {
        return upstreamFailure;
    }

    /** {@code upstream_body_error}: the spelling in logs. */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The provenance of a conversion failure raised while converting the response. */
    public static Provenance ofResponseFailure(TranscodeException e) {
        return e.upstreamFailure() ? UPSTREAM_BODY_ERROR : LOCAL_RESPONSE_CONVERSION_ERROR;
    }
}
