package shaper.probe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;

import io.helidon.common.uri.UriQuery;
import io.helidon.http.Method;
import io.helidon.webserver.http.ServerRequest;
import shaper.config.GoDuration;

/**
 * One request as a fixture sees it: which fixture, the full path and its hit ordinal, the body
 * (read whole, at most {@link #MAX_BODY} bytes) and the query knobs. Body JSON that does not parse
 * reads as "no fields": fixtures other than the Anthropic API do not care what they are sent.
 */
final class ProbeRequest {
    /** Large enough for any real Claude Code conversation; a bigger body is answered 413. */
    static final int MAX_BODY = 32 * 1024 * 1024;
    static final String DEFAULT_MODEL = "claude-probe-1";

    private final Fixture fixture;
    private final Method method;
    private final String path;
    private final long hit;
    private final UriQuery query;
    private final byte[] body;
    private final JsonNode json;

    private ProbeRequest(Fixture fixture, Method method, String path, long hit, UriQuery query, byte[] body, JsonNode json) {
        this.fixture = fixture;
        this.method = method;
        this.path = path;
        this.hit = hit;
        this.query = query;
        this.body = body;
        this.json = json;
    }

    /** A problem with what the client sent; the fixture answers it with {@code status} instead of its scenario. */
    static final class Rejected extends RuntimeException {
        final int status;

        Rejected(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    static ProbeRequest read(ServerRequest req, Fixture fixture, String path, long hit, ObjectMapper mapper) {
        byte[] body = new byte[0];
        if (req.content().hasEntity()) {
            try {
                body = req.content().inputStream().readNBytes(MAX_BODY + 1);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (body.length > MAX_BODY) {
                throw new Rejected(413, "request body over " + MAX_BODY + " bytes");
            }
        }
        return new ProbeRequest(fixture, req.prologue().method(), path, hit, req.query(), body, parse(body, mapper));
    }

    private static JsonNode parse(byte[] body, ObjectMapper mapper) {
        if (body.length == 0) {
            return MissingNode.getInstance();
        }
        try {
            JsonNode node = mapper.readTree(body);
            return node == null ? MissingNode.getInstance() : node;
        } catch (IOException e) {
            return MissingNode.getInstance();
        }
    }

    Fixture fixture() {
        return fixture;
    }

    Method method() {
        return method;
    }

    String path() {
        return path;
    }

    /** The path below the fixture prefix ({@code /v1/messages} for {@code /flaky422/v1/messages}). */
    String remainder() {
        return fixture.remainder(path);
    }

    /** 1-based: the first request on this exact path is hit 1. */
    long hit() {
        return hit;
    }

    boolean hasJsonObject() {
        return json.isObject();
    }

    JsonNode json() {
        return json;
    }

    /** True only for a literal {@code "stream": true}, as the Anthropic API reads it. */
    boolean wantsStream() {
        return json.path("stream").isBoolean() && json.path("stream").booleanValue();
    }

    String model() {
        JsonNode m = json.path("model");
        return m.isTextual() && !m.textValue().isBlank() ? m.textValue() : DEFAULT_MODEL;
    }

    /** The same bytes/4 estimate the shaper's large-request gate uses; at least 1. */
    int estimatedInputTokens() {
        return Math.max(1, body.length / 4);
    }

    boolean bodyContains(String needle) {
        return new String(body, StandardCharsets.UTF_8).contains(needle);
    }

    /** The flaky fixtures' rule: hits up to {@code ?fails=N} (default {@code defaultFailures}) fail. */
    boolean failsThisCall(int defaultFailures) {
        return hit <= intParam("fails", defaultFailures, 0, Integer.MAX_VALUE);
    }

    int intParam(String name, int fallback, int min, int max) {
        return param(name, fallback, raw -> {
            int value;
            try {
                value = Integer.parseInt(raw);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("\"" + raw + "\" (expected: an integer)");
            }
            if (value < min || value > max) {
                throw new IllegalArgumentException(value + " (expected: " + min + ".." + max + ")");
            }
            return value;
        });
    }

    Duration durationParam(String name, Duration fallback) {
        return param(name, fallback, raw -> {
            Duration d = GoDuration.parse(raw);
            if (d.isNegative()) {
                throw new IllegalArgumentException(raw + " (expected: >= 0s)");
            }
            return d;
        });
    }

    /** The query parameter {@code name} read by {@code parse}, or {@code fallback}; a value it refuses is a 400 naming the parameter. */
    private <T> T param(String name, T fallback, Function<String, T> parse) {
        Optional<String> raw = param(name);
        try {
            return raw.isEmpty() ? fallback : parse.apply(raw.get());
        } catch (IllegalArgumentException e) {
            throw new Rejected(400, name + ": " + e.getMessage());
        }
    }

    private Optional<String> param(String name) {
        return query.first(name).asOptional();
    }
}
