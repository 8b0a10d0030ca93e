package shaper.priority;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/**
 * Finds a JSON request body's top-level {@code "model"} string in its first bytes, without
 * building a tree: the body may be a prefix (the proxy peeks at most a bounded amount), so a
 * truncated or non-JSON body just yields {@code null}.
 */
public final class ModelPeek {
    private static final JsonFactory JSON = new JsonFactory();

    private ModelPeek() {
    }

    /** The top-level {@code "model"} of {@code body[0, length)}, or {@code null}. */
    public static String model(byte[] body, int length) {
        if (body == null || length <= 0) {
            return null;
        }
        try (JsonParser p = JSON.createParser(body, 0, length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals("model")) {
                    return value == JsonToken.VALUE_STRING ? p.getText() : null;
                }
                p.skipChildren();
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }
}
