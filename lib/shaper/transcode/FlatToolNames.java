package shaper.transcode;

import java.util.Map;

/**
 * One exchange's map from the flat function names sent to a Chat upstream back to the client's
 * namespaced tools (Codex namespace and MCP tools). A child keeps its bare name unless another tool
 * already has it; then it is {@code namespace__child}. Immutable.
 *
 * @param origins flat name to its namespace and child name; names without a namespace are absent
 */
public record FlatToolNames(Map<String, Origin> origins) {
    /** No namespaced tools. */
    public static final FlatToolNames NONE = new FlatToolNames(Map.of());

    /** Where a flat name came from. */
    public record Origin(String namespace, String name) {
    }

    public FlatToolNames {
        origins = Map.copyOf(origins);
    }

    /** The client's namespace for a flat name, or null when it has none. */
    public Origin origin(String flatName) {
        return origins.get(flatName);
    }
}
