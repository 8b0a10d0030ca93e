package shaper.transcode.ir;

import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;

/** The shape the client asked the answer to take (Responses {@code text.format}). */
public sealed interface OutputFormat {
    /** Free text: the default, nothing to render. */
    record Text() implements OutputFormat {
    }

    /** Any JSON object. */
    record JsonObject() implements OutputFormat {
    }

    /**
     * A JSON Schema the answer must follow.
     *
     * @param description may be null
     * @param strict      null when the client gave none
     */
    record JsonSchema(String name, String description, JsonNode schema, Boolean strict) implements OutputFormat {
        public JsonSchema {
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("format name: empty (expected: non-empty)");
            }
            Objects.requireNonNull(schema, "schema");
            if (!schema.isObject()) {
                throw new IllegalArgumentException("format schema: " + schema.getNodeType() + " (expected: object)");
            }
        }
    }
}
