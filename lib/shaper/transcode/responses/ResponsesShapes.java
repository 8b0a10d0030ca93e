package shaper.transcode.responses;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import shaper.transcode.FlatToolNames;
import shaper.transcode.ir.StopReason;

/**
 * The Responses objects the JSON and stream renderers share: the response envelope and its output
 * items (message, function call, reasoning), so a streamed {@code response.completed} carries
 * exactly what a non-streaming reply would. Ids are derived from the upstream's id
 * ({@code resp_}, {@code msg_}, {@code fc_}, {@code rs_} plus its safe characters and the output index).
 */
final class ResponsesShapes {
    private static final JsonNodeFactory N = JsonNodeFactory.instance;

    private ResponsesShapes() {
    }

    /** {@code resp_} and the upstream id's safe characters. */
    static String responseId(String upstreamId) {
        String safe = upstreamId.replaceAll("[^A-Za-z0-9_-]", "");
        return safe.startsWith("resp_") ? safe : "resp_" + (safe.isEmpty() ? "transcoded" : safe);
    }

    /** An item id: {@code prefix_<response id body>_<output index>}. */
    static String itemId(String prefix, String responseId, int outputIndex) {
        return prefix + "_" + responseId.substring("resp_".length()) + "_" + outputIndex;
    }

    /** The response envelope without output and usage. */
    static ObjectNode response(String id, long createdAt, String model, String status) {
        ObjectNode r = N.objectNode().put("id", id).put("object", "response").put("created_at", createdAt).put("status", status);
        r.putNull("error").putNull("incomplete_details");
        r.put("model", model);
        r.putArray("output");
        r.put("parallel_tool_calls", true).put("tool_choice", "auto");
        r.putArray("tools");
        r.putNull("previous_response_id").put("store", false);
        r.putObject("text").putObject("format").put("type", "text");
        return r;
    }

    /** The status of a finished answer and, for {@code incomplete}, its reason. */
    static void finish(ObjectNode response, StopReason stop) {
        switch (stop) {
            case END_TURN, TOOL_USE, STOP_SEQUENCE -> response.put("status", "completed");
            case MAX_TOKENS -> {
                response.put("status", "incomplete");
                response.putObject("incomplete_details").put("reason", "max_output_tokens");
            }
            case REFUSAL -> {
                response.put("status", "incomplete");
                response.putObject("incomplete_details").put("reason", "content_filter");
            }
        }
    }

    /** The terminal event for a finished answer: {@code response.completed} or {@code response.incomplete}. */
    static String terminalEvent(StopReason stop) {
        return switch (stop) {
            case END_TURN, TOOL_USE, STOP_SEQUENCE -> "response.completed";
            case MAX_TOKENS, REFUSAL -> "response.incomplete";
        };
    }

    static ObjectNode message(String id, String status, String text) {
        ObjectNode item = N.objectNode().put("id", id).put("type", "message").put("status", status).put("role", "assistant");
        if (text == null) {
            item.putArray("content");
        } else {
            item.putArray("content").add(outputText(text));
        }
        return item;
    }

    static ObjectNode outputText(String text) {
        ObjectNode part = N.objectNode().put("type", "output_text").put("text", text);
        part.putArray("annotations");
        part.putArray("logprobs");
        return part;
    }

    /** A function call, its flat name mapped back to the client's namespace when it had one. */
    static ObjectNode functionCall(String id, String callId, String flatName, FlatToolNames names, String arguments, String status) {
        ObjectNode item = N.objectNode().put("id", id).put("type", "function_call").put("status", status).put("call_id", callId);
        FlatToolNames.Origin origin = names.origin(flatName);
        if (origin == null) {
            item.put("name", flatName);
        } else {
            item.put("name", origin.name()).put("namespace", origin.namespace());
        }
        item.put("arguments", arguments);
        return item;
    }

    /** Provider reasoning as a reasoning item whose content is the raw reasoning text (no summary was made). */
    static ObjectNode reasoning(String id, String text) {
        ObjectNode item = N.objectNode().put("id", id).put("type", "reasoning");
        item.putArray("summary");
        if (text != null) {
            item.putArray("content").addObject().put("type", "reasoning_text").put("text", text);
        } else {
            item.putArray("content");
        }
        return item;
    }
}
