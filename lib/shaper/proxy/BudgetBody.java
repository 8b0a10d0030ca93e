package shaper.proxy;

/**
 * The bytes a token budget estimates a request's cost from: the body as the model will read it, so
 * a coded body is decoded first (bounded by what the body itself may be, {@code -retry-max-body-mb}).
 * A body the proxy cannot decode is estimated by its raw bytes; the upstream decides whether it
 * accepts it, and the reconciliation at the end corrects the estimate either way.
 */
final class BudgetBody {
    private BudgetBody() {
    }

    /** The decoded bytes, the raw ones when not coded or not decodable, or null when the body was too large to buffer. */
    static byte[] decoded(RequestCoding coding, RequestBody body) {
        byte[] raw = body.bytes();
        byte[] plain = decodedOrNull(coding, raw);
        return plain != null ? plain : raw;
    }

    /**
     * For the usage accounting: the bytes decoded, or null when there are none or they cannot be
     * decoded (coded bytes name no model and say nothing of the input's size).
     */
    static byte[] decodedOrNull(RequestCoding coding, byte[] raw) {
        return raw == null ? null : coding.plain(raw, Math.max(raw.length, WaitingRequest.BUFFER_LIMIT));
    }
}
