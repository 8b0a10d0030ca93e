package shaper.probe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An HTTP 200 event stream that fails before any output: the lifecycle preamble, then an error
 * frame, then the end of the stream. Paths containing {@code /responses} get the Responses envelope
 * ({@code response.created}, {@code response.failed}); every other path gets the Messages one
 * ({@code message_start}, {@code error}). This is the failure a proxy can only find by reading the body.
 */
final class EarlyErrorStream {
    /** What went wrong, in both dialects' vocabulary. */
    enum Cause {
        RATE_LIMIT("rate_limit_error", "rate_limit_exceeded", "Rate limit exceeded (too_many_requests): slow down and retry later."),
        UNAVAILABLE("api_error", "server_error", "Upstream service unavailable");

        final String messagesType;
        final String responsesCode;
        final String message;

        Cause(String messagesType, String responsesCode, String message) {
            this.messagesType = messagesType;
            this.responsesCode = responsesCode;
            this.message = message;
        }
    }

    private final ObjectMapper mapper;

    EarlyErrorStream(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    void send(SseStream sse, MessagesReply turn, String model, String path, Cause cause) {
        if (path.contains("/responses")) {
            String id = MessagesReply.newId("resp_");
            ObjectNode created = mapper.createObjectNode().put("type", "response.created").put("sequence_number", 0);
            created.putObject("response").put("id", id).put("object", "response").put("status", "in_progress").put("model", model);
            ObjectNode failed = mapper.createObjectNode().put("type", "response.failed").put("sequence_number", 1);
            ObjectNode response = failed.putObject("response").put("id", id).put("object", "response")
                    .put("status", "failed").put("model", model);
            response.putObject("error").put("code", cause.responsesCode).put("message", cause.message);
            sse.send("response.created", write(created));
            sse.send("response.failed", write(failed));
        } else {
            MessagesReply.Frame start = turn.opening().getFirst();
            sse.send(start.event(), start.data());
            sse.send("error", FailureBodies.error(cause.messagesType, cause.message));
        }
    }

    private String write(ObjectNode node) {
        try {
            return mapper.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
