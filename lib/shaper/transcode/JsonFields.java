package shaper.transcode;

import java.util.Iterator;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Typed reads of JSON members with errors that name the field path. {@link #only} is the strict
 * rule for client requests; upstream decoders read what they know and skip the rest.
 * Strict failures are {@link TranscodeException.Invalid}; upstream ones {@link TranscodeException.UpstreamWire}.
 */
public final class JsonFields {
    private final boolean upstream;

    private JsonFields(boolean upstream) {
        this.upstream = upstream;
    }

    /** Reads of a client request. */
    public static final JsonFields CLIENT = new JsonFields(false);
    /** Reads of an upstream response. */
    public static final JsonFields UPSTREAM = new JsonFields(true);

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** A whole body that must be one JSON object (named {@code path} in errors); every decoder starts here. */
    public JsonNode parseObject(byte[] body, String path) {
        JsonNode root;
        try {
            root = MAPPER.readTree(body);
        } catch (java.io.IOException e) {
            throw upstream ? new TranscodeException.UpstreamWire("upstream returned a body that is not valid JSON")
                    : new TranscodeException.Invalid("request body is not valid JSON");
        }
        return object(root, path);
    }

    /** The (trimmed) data of one upstream SSE frame, which must be one JSON object (named {@code path} in errors). */
    public JsonNode parseFrame(String data, String path) {
        JsonNode root;
        try {
            root = MAPPER.readTree(data);
        } catch (java.io.IOException e) {
            throw new TranscodeException.UpstreamWire("upstream stream frame is not valid JSON");
        }
        return object(root, path);
    }

    /** Every member of {@code node} must be in {@code allowed}. */
    public void only(JsonNode node, String path, Set<String> allowed) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!allowed.contains(name)) {
                throw fail(path + "." + name + ": unknown field");
            }
        }
    }

    public JsonNode object(JsonNode node, String path) {
        return expect(node, path, JsonNode::isObject, "object");
    }

    public JsonNode array(JsonNode node, String path) {
        return expect(node, path, JsonNode::isArray, "array");
    }

    /** A required string member. */
    public String string(JsonNode parent, String name, String path) {
        return expect(parent.get(name), path + "." + name, JsonNode::isTextual, "string").asText();
    }

    /** An optional string member; JSON null counts as absent. */
    public String optString(JsonNode parent, String name, String path) {
        return optional(parent, name, path, JsonNode::isTextual, "string", JsonNode::asText);
    }

    /** An optional integer member; JSON null counts as absent. */
    public Long optLong(JsonNode parent, String name, String path) {
        return optional(parent, name, path, v -> v.isIntegralNumber() && v.canConvertToLong(), "integer", JsonNode::asLong);
    }

    /** An optional number member; JSON null counts as absent. */
    public Double optDouble(JsonNode parent, String name, String path) {
        return optional(parent, name, path, JsonNode::isNumber, "number", JsonNode::asDouble);
    }

    /** An optional boolean member; JSON null counts as absent. */
    public Boolean optBoolean(JsonNode parent, String name, String path) {
        return optional(parent, name, path, JsonNode::isBoolean, "boolean", JsonNode::asBoolean);
    }

    /** {@code node} when it is of the kind {@code expected} names, else the failure naming {@code path}. */
    private JsonNode expect(JsonNode node, String path, Predicate<JsonNode> is, String expected) {
        if (node == null || !is.test(node)) {
            throw fail(path + ": " + kind(node) + " (expected: " + expected + ")");
        }
        return node;
    }

    private <T> T optional(JsonNode parent, String name, String path, Predicate<JsonNode> is, String expected,
                           Function<JsonNode, T> read) {
        JsonNode v = parent.get(name);
        return v == null || v.isNull() ? null : read.apply(expect(v, path + "." + name, is, expected));
    }

    public TranscodeException fail(String message) {
        return upstream ? new TranscodeException.UpstreamWire("upstream " + message) : new TranscodeException.Invalid(message);
    }

    private static String kind(JsonNode n) {
        return n == null || n.isMissingNode() ? "missing" : n.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }
}
