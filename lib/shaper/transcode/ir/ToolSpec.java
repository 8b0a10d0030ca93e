package shaper.transcode.ir;

import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A client function tool.
 *
 * @param description may be null
 * @param parameters  the JSON Schema object, never mutated
 * @param strict      the client's strictness, or null when its dialect has none
 */
public record ToolSpec(String name, String description, JsonNode parameters, Boolean strict) {
    public ToolSpec {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("tool name: empty (expected: non-empty)");
        }
        Objects.requireNonNull(parameters, "parameters");
        if (!parameters.isObject()) {
            throw new IllegalArgumentException("tool parameters: " + parameters.getNodeType() + " (expected: object)");
        }
    }
}
