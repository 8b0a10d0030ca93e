package shaper.probe;

import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.helidon.http.Method;
import io.helidon.webserver.http.ServerResponse;

/**
 * Answers like the Anthropic API, enough for Claude Code and the SDKs: {@code POST .../messages}
 * (a JSON message, or the event stream when the body has {@code "stream": true}),
 * {@code POST .../messages/count_tokens} and {@code GET .../models[/ID]}. Every fixture's success
 * path ends here, so {@code /flaky422/v1/messages} succeeds with the same shapes as {@code /v1/messages}.
 */
final class AnthropicApi {
    static final String MODEL_ID = ProbeRequest.DEFAULT_MODEL;

    private final ObjectMapper mapper;
    private final String reply;
    private final Sleeper sleeper;

    AnthropicApi(ObjectMapper mapper, String reply, Sleeper sleeper) {
        this.mapper = mapper;
        this.reply = reply;
        this.sleeper = sleeper;
    }

    /** The success answer for whatever API path the request names below its fixture prefix. */
    void respond(ProbeRequest r, ServerResponse res) throws InterruptedException {
        String path = r.remainder();
        if (r.method().equals(Method.GET) && (path.endsWith("/models") || path.contains("/models/"))) {
            models(path, res);
        } else if (r.method().equals(Method.POST) && path.endsWith("/messages/count_tokens")) {
            JsonReply.send(res, 200, "{\"input_tokens\":" + r.estimatedInputTokens() + "}");
        } else if (r.method().equals(Method.POST) || r.fixture() != Fixture.ANTHROPIC) {
            // Below a fixture prefix every method gets the fixture's answer (GET /ok included);
            // only the bare Anthropic API routes by method.
            if (r.fixture() == Fixture.ANTHROPIC && !r.hasJsonObject()) {
                JsonReply.send(res, 400, FailureBodies.error("invalid_request_error", "request body must be a JSON object"));
                return;
            }
            message(r, res, MessagesReply.chunks(reply), Duration.ZERO);
        } else {
            JsonReply.send(res, 404, FailureBodies.error("not_found_error", "no such API route: " + r.method().text() + " " + path));
        }
    }

    /** A reply of {@code chunks}; streamed (waiting {@code spacing} before each delta) when the request asks to stream. */
    void message(ProbeRequest r, ServerResponse res, List<String> chunks, Duration spacing) throws InterruptedException {
        MessagesReply turn = turn(r, chunks);
        if (r.wantsStream()) {
            stream(turn, res, spacing);
        } else {
            JsonReply.send(res, 200, turn.document());
        }
    }

    /** The full event sequence regardless of what the request asked for. */
    void stream(MessagesReply turn, ServerResponse res, Duration spacing) throws InterruptedException {
        try (SseStream sse = new SseStream(res)) {
            for (MessagesReply.Frame f : turn.opening()) {
                sse.send(f.event(), f.data());
            }
            for (int i = 0; i < turn.chunks().size(); i++) {
                if (spacing.isPositive()) {
                    sleeper.sleep(spacing);
                }
                MessagesReply.Frame f = turn.delta(i);
                sse.send(f.event(), f.data());
            }
            for (MessagesReply.Frame f : turn.closing()) {
                sse.send(f.event(), f.data());
            }
        }
    }

    MessagesReply turn(ProbeRequest r, List<String> chunks) {
        return new MessagesReply(mapper, r.model(), r.estimatedInputTokens(), chunks);
    }

    private void models(String path, ServerResponse res) {
        ObjectNode model = mapper.createObjectNode().put("type", "model").put("id", MODEL_ID)
                .put("display_name", "Probe Model").put("created_at", "2025-01-01T00:00:00Z");
        if (path.contains("/models/")) {
            String id = path.substring(path.indexOf("/models/") + "/models/".length());
            model.put("id", id);
            JsonReply.send(res, 200, write(model));
            return;
        }
        ObjectNode list = mapper.createObjectNode();
        list.putArray("data").add(model);
        list.put("has_more", false).put("first_id", MODEL_ID).put("last_id", MODEL_ID);
        JsonReply.send(res, 200, write(list));
    }

    private String write(ObjectNode node) {
        try {
            return mapper.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
