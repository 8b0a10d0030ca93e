package shaper.probe;

import java.util.Optional;

/**
 * Every path prefix the fixture server answers, with the one-line summary that {@code -h} prints.
 * A prefix matches itself and everything below it ({@code /flaky422} matches {@code /flaky422/v1/messages}),
 * so a proxy can use {@code http://127.0.0.1:15722/flaky422} as its upstream base. This enum is the
 * single source of the prefix list: the help text, the stats document and the router all read it.
 */
public enum Fixture {
    OK("/ok", "200 success: a Messages reply (SSE when the body has \"stream\": true)"),
    RATE_422("/rate422", "always 422 with rate-limit wording (rate_limit_error, too_many_requests)"),
    FMT_422("/fmt422", "always 422 with a request-format error and no rate-limit wording (not retryable)"),
    FMT_400("/fmt400", "always 400 invalid_request_error (not retryable)"),
    FLAKY_422("/flaky422", "422 rate-limit wording for the first N calls per path (-failures, ?fails=N), then success"),
    FLAKY_BEFORE("/flakybefore", "422 \"failed before output\" for the first N calls per path, then success"),
    FLAKY_CONN("/flakyconn", "closes the connection without a response for the first N calls per path, then success"),
    UNAVAIL_503("/unavail503", "always 503 \"Upstream service unavailable\""),
    REJECT_502("/reject502", "always 502 saying the upstream rejected the request as invalid (not retryable)"),
    SSE200_LIMIT("/sse200limit", "always HTTP 200 SSE whose first frame after the preamble is a rate-limit error"),
    FLAKY_SSE200("/flakysse200", "HTTP 200 SSE with an early \"Upstream service unavailable\" error for the first N calls per path, then a normal stream"),
    AZURE_ALWAYS("/azurealways", "always 429 Azure-style \"exceeded token rate limit\" with Retry-After: 1"),
    STALE_400("/stale400", "400 resource mismatch (invalid_encrypted_content) while the body holds ccswitch-openai-reasoning- carriers, else success"),
    SLOW_SSE("/slowsse", "200 Messages SSE whose text deltas are spaced by ?interval= (-sse-interval); ?events=N deltas"),
    RETRY_429("/retry429", "429 rate_limit_error with Retry-After (?after=, -retry-after) for the first N calls per path, then success"),
    BURST_5XX("/burst5xx", "a 5xx (?status=, -burst-status) for the first N calls per path, then success"),
    SLOW("/slow", "non-streaming Messages reply after ?delay= (-slow-delay)"),
    CAPACITY("/capacity", "serves -capacity N requests at once, 429 (or 529, -capacity-status) above; first byte slower near N"
            + " (-capacity-latency); POST /__probe/capacity?n=N moves N at run time"),
    CHAT("/chat", "OpenAI Chat Completions upstream: POST /chat/v1/chat/completions (JSON or data-only SSE with usage; [[bash:CMD]]"
            + " gets a Bash tool call split over chunks, [[reason]] gets reasoning_content), GET /chat/v1/models"),
    RESPONSES("/responses", "OpenAI Responses upstream: POST /responses/v1/responses (JSON or SSE lifecycle; [[bash:CMD]] gets a Bash"
            + " function call, [[reason]] a reasoning item, [[dataonly]] a stream without event: names and a repeated terminal)"),
    RATE_LIMITED("/ratelimited", "Anthropic Messages (/ratelimited/v1/messages) and Chat Completions (/ratelimited/v1/chat/completions)"
            + " behind RPM/ITPM/OTPM token buckets (-rl-*, ?rpm= ?itpm= ?otpm= ?tpm= ?out=): official rate-limit headers, real usage,"
            + " 429 + retry-after when a bucket is empty"),
    ANTHROPIC("/v1", "Anthropic API: POST /v1/messages (JSON or SSE), POST /v1/messages/count_tokens, GET /v1/models");

    private final String prefix;
    private final String summary;

    Fixture(String prefix, String summary) {
        this.prefix = prefix;
        this.summary = summary;
    }

    public String prefix() {
        return prefix;
    }

    public String summary() {
        return summary;
    }

    /** The fixture whose prefix is {@code path} or a parent segment of it. */
    public static Optional<Fixture> match(String path) {
        for (Fixture f : values()) {
            if (path.equals(f.prefix) || path.startsWith(f.prefix + "/")) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    /** The part of {@code path} below this prefix; the whole path for the Anthropic API. */
    String remainder(String path) {
        return this == ANTHROPIC ? path : path.substring(prefix.length());
    }
}
