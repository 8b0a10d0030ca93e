package shaper.probe;

/**
 * The error texts the failing fixtures send, in one place. They carry exactly the wording the
 * proxy's retry policy recognizes ({@code shaper.retry.ErrorWording}: rate limit / too_many_requests,
 * failed before output, Upstream service unavailable) or deliberately lack it (format errors), and the two markers that
 * make an error deterministic ({@code invalid_request_error}, {@code rejected the request as invalid}).
 */
final class FailureBodies {
    /** {@code /rate422}, {@code /flaky422}: recognized rate-limit wording under a 422. */
    static final String RATE_LIMIT = error("rate_limit_error",
            "Rate limit exceeded (too_many_requests): slow down and retry later.");
    /** {@code /fmt422}: a 422 with no recognized wording, which must pass through unretried. */
    static final String FORMAT_422 = error("unprocessable_entity",
            "Unprocessable request: messages.0.content has an unexpected format.");
    /** {@code /fmt400}: a plain client error. */
    static final String FORMAT_400 = error("invalid_request_error", "messages: field required");
    /** {@code /flakybefore}: the transient "failed before output" wording. */
    static final String FAILED_BEFORE_OUTPUT = error("api_error", "Upstream request failed before output was produced.");
    /** {@code /unavail503} and the early SSE error of {@code /flakysse200}. */
    static final String UNAVAILABLE = error("api_error", "Upstream service unavailable");
    /** {@code /reject502}: both deterministic markers, so even a 502 is final. */
    static final String REJECTED = error("invalid_request_error", "The upstream rejected the request as invalid.");
    /** {@code /azurealways}: the shape Azure OpenAI uses, wording includes "rate limit". */
    static final String AZURE_RATE_LIMIT = "{\"error\":{\"code\":\"429\",\"message\":\"Requests to this Azure OpenAI"
            + " deployment have exceeded the token rate limit of the current pricing tier. Retry after 1 second.\"}}";
    /** {@code /stale400}: an OpenAI-shaped backend-resource mismatch on a carried reasoning item. */
    static final String STALE_REASONING = "{\"error\":{\"message\":\"The encrypted content for item rs_probe could not be"
            + " verified: it was produced for a different backend resource.\",\"type\":\"invalid_request_error\","
            + "\"param\":null,\"code\":\"invalid_encrypted_content\"}}";
    /** The marker {@code /stale400} looks for in the request body. */
    static final String STALE_CARRIER = "ccswitch-openai-reasoning-";

    private FailureBodies() {
    }

    /** The Anthropic error envelope; {@code message} must not need JSON escaping beyond quotes. */
    static String error(String type, String message) {
        return "{\"type\":\"error\",\"error\":{\"type\":\"" + type + "\",\"message\":\"" + message.replace("\"", "\\\"") + "\"}}";
    }
}
