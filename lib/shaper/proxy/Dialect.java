package shaper.proxy;

import java.util.Locale;

/**
 * The wire a streaming client speaks, judged from the request path, so a synthetic stream can
 * speak it too: keepalives and the final error event take the client's envelope.
 */
enum Dialect {
    /** Anthropic Messages: {@code event: ping} keepalives, {@code event: error} with {@code {"type":"error",...}}. */
    MESSAGES,
    /** OpenAI Responses: comment keepalives, {@code event: response.failed}. */
    RESPONSES,
    /** OpenAI Chat Completions: comment keepalives, a data-only {@code {"error":{...}}} object. */
    CHAT,
    /** Anything else: comment keepalives, a generic {@code event: error}. */
    OTHER;

    static Dialect of(String rawPath) {
        String p = rawPath.toLowerCase(Locale.ROOT);
        while (p.endsWith("/") && p.length() > 1) {
            p = p.substring(0, p.length() - 1);
        }
        if (p.endsWith("/messages")) {
            return MESSAGES;
        }
        if (p.endsWith("/responses")) {
            return RESPONSES;
        }
        if (p.endsWith("/chat/completions")) {
            return CHAT;
        }
        return OTHER;
    }

    /** One keepalive, never inside a frame. */
    String keepalive() {
        return this == MESSAGES ? "event: ping\ndata: {\"type\": \"ping\"}\n\n" : ": keepalive\n\n";
    }

    /** The terminal error event carrying the upstream's message and error type. */
    String errorEvent(String type, String message) {
        String t = Json.quote(type);
        String m = Json.quote(message);
        return switch (this) {
            case MESSAGES -> "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":" + t + ",\"message\":" + m + "}}\n\n";
            case RESPONSES -> "event: response.failed\ndata: {\"type\":\"response.failed\",\"response\":{\"object\":\"response\","
                    + "\"status\":\"failed\",\"error\":{\"code\":" + t + ",\"message\":" + m + "}}}\n\n";
            case CHAT -> "data: {\"error\":{\"message\":" + m + ",\"type\":" + t + "}}\n\n";
            case OTHER -> "event: error\ndata: {\"error\":{\"message\":" + m + ",\"type\":" + t + "}}\n\n";
        };
    }
}
