package shaper.proxy;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/** Reads the top-level {@code "stream"} member of a JSON request body without building a tree. */
final class StreamFlag {
    private static final JsonFactory JSON = new JsonFactory();

    private StreamFlag() {
    }

    /** True only for a JSON object whose top-level {@code stream} is literally {@code false}. */
    static boolean isExplicitlyFalse(byte[] body) {
        return value(body) == JsonToken.VALUE_FALSE;
    }

    /** True only for a JSON object whose top-level {@code stream} is literally {@code true}. */
    static boolean isTrue(byte[] body) {
        return value(body) == JsonToken.VALUE_TRUE;
    }

    private static JsonToken value(byte[] body) {
        try (JsonParser p = JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                if ("stream".equals(name)) {
                    return v;
                }
                p.skipChildren();
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }
}
