package shaper.telemetry;

import java.util.List;

import io.opentelemetry.api.common.AttributeKey;

/**
 * The attribute names this proxy puts on spans and metrics: the OpenTelemetry GenAI semantic
 * conventions' where they name the fact, HTTP's for the wire, and {@code shaper.*} for what only a
 * shaping gateway knows (queue, attempts, outcome). Never a prompt, a completion or a header value.
 */
final class GenAi {
    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    static final AttributeKey<String> RESPONSE_MODEL = AttributeKey.stringKey("gen_ai.response.model");
    static final AttributeKey<List<String>> FINISH_REASONS = AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
    /** Every input token, cache reads and writes included, as the convention counts them. */
    static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    static final AttributeKey<Long> CACHE_READ_TOKENS = AttributeKey.longKey("gen_ai.usage.cache_read.input_tokens");
    static final AttributeKey<Long> CACHE_CREATION_TOKENS = AttributeKey.longKey("gen_ai.usage.cache_creation.input_tokens");
    static final AttributeKey<Long> REASONING_TOKENS = AttributeKey.longKey("gen_ai.usage.reasoning.output_tokens");
    static final AttributeKey<String> TOKEN_TYPE = AttributeKey.stringKey("gen_ai.token.type");

    static final AttributeKey<String> HTTP_METHOD = AttributeKey.stringKey("http.request.method");
    static final AttributeKey<Long> HTTP_STATUS = AttributeKey.longKey("http.response.status_code");
    static final AttributeKey<String> URL_PATH = AttributeKey.stringKey("url.path");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    static final AttributeKey<String> SHAPER_PROVIDER = AttributeKey.stringKey("shaper.provider");
    static final AttributeKey<String> CLIENT = AttributeKey.stringKey("shaper.client");
    static final AttributeKey<String> PRIORITY_CLASS = AttributeKey.stringKey("shaper.priority_class");
    static final AttributeKey<String> ROUTE = AttributeKey.stringKey("shaper.route");
    /** {@code http}, or {@code ws} for one turn of a Responses WebSocket session. */
    static final AttributeKey<String> TRANSPORT = AttributeKey.stringKey("shaper.transport");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("shaper.outcome");
    static final AttributeKey<String> END_REASON = AttributeKey.stringKey("shaper.end_reason");
    static final AttributeKey<Long> ATTEMPTS = AttributeKey.longKey("shaper.attempts");
    static final AttributeKey<String> USAGE_SOURCE = AttributeKey.stringKey("shaper.usage.source");
    static final AttributeKey<String> QUEUE_LIMITER = AttributeKey.stringKey("shaper.queue.limiter");
    static final AttributeKey<Long> QUEUE_POSITION = AttributeKey.longKey("shaper.queue.position");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("shaper.attempt");
    static final AttributeKey<String> RETRY_REASON = AttributeKey.stringKey("shaper.retry.reason");
    static final AttributeKey<Double> RETRY_BACKOFF = AttributeKey.doubleKey("shaper.retry.backoff_s");
    static final AttributeKey<String> TRANSCODE_PHASE = AttributeKey.stringKey("shaper.transcode.phase");
    static final AttributeKey<String> SLOT_LIMITER = AttributeKey.stringKey("shaper.limiter");
    static final AttributeKey<String> SLOT_STATE = AttributeKey.stringKey("shaper.state");

    private GenAi() {
    }

    /**
     * The convention's operation for a model endpoint's path; empty for a path that is no model call
     * ({@code /v1/models}, a file): such an exchange gets HTTP attributes only.
     */
    static String operation(String path) {
        for (String[] endpoint : OPERATIONS) {
            if (path.endsWith(endpoint[0])) {
                return endpoint[1];
            }
        }
        return "";
    }

    /** Path endings and their operations, the longer ending first ({@code /chat/completions} before {@code /completions}). */
    private static final String[][] OPERATIONS = {{"/messages", "chat"}, {"/chat/completions", "chat"}, {"/responses", "chat"},
            {"/completions", "text_completion"}, {"/embeddings", "embeddings"}};

    /** The convention's provider name for the dialect a client speaks on {@code path}. */
    static String provider(String path) {
        return path.contains("/messages") ? "anthropic" : "openai";
    }
}
