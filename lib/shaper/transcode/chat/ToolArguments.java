package shaper.transcode.chat;

import java.io.IOException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.transcode.TranscodeException;

/**
 * Chat carries tool arguments as a JSON string; Anthropic requires a JSON object. Model-generated
 * arguments that are not an object are unrepresentable output (a local failure, not the upstream's).
 */
public final class ToolArguments {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ToolArguments() {
    }

    /** The arguments as object text; an empty string is {@code {}}. */
    public static String normalize(String arguments) {
        if (arguments.isBlank()) {
            return "{}";
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(arguments);
        } catch (IOException e) {
            throw new TranscodeException.Unrepresentable("model-generated tool arguments are not valid JSON");
        }
        if (node == null || !node.isObject()) {
            throw new TranscodeException.Unrepresentable("model-generated tool arguments are not a JSON object");
        }
        return arguments;
    }
}
