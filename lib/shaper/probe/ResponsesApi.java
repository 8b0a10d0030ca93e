package shaper.probe;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.helidon.http.Method;
import io.helidon.webserver.http.ServerResponse;

/**
 * An OpenAI Responses upstream under {@code /responses}, for the Messages → Responses direction:
 * {@code POST /responses/v1/responses}. What it answers is decided by the last input item that is not a
 * system or developer message:
 * <ul>
 *   <li>a {@code function_call_output}: the text {@code tool said: <output>};</li>
 *   <li>a user message containing {@code [[bash:COMMAND]]} when a {@code Bash} function tool is
 *       offered: a {@code Bash} function call with {@code {"command":COMMAND,...}}, its arguments
 *       streamed in several deltas;</li>
 *   <li>otherwise the configured reply text.</li>
 * </ul>
 * {@code [[reason]]} adds a reasoning item first. A user message containing {@code [[dataonly]]}
 * gets a stream without {@code event:} lines and with its {@code response.completed} sent twice
 * (shapes real gateways send). Streams carry the full lifecycle with sequence numbers.
 */
final class ResponsesApi {
    private final ObjectMapper mapper;
    private final String reply;

    ResponsesApi(ObjectMapper mapper, String reply) {
        this.mapper = mapper;
        this.reply = reply;
    }

    void respond(ProbeRequest r, ServerResponse res) {
        if (!r.method().equals(Method.POST) || !r.remainder().equals("/v1/responses")) {
            JsonReply.noSuchRoute(res, r);
            return;
        }
        JsonNode body = r.json();
        JsonNode input = body.path("input");
        if (!body.isObject() || !(input.isArray() && !input.isEmpty() || input.isTextual())) {
            JsonReply.send(res, 400, "{\"error\":{\"message\":\"input is required\",\"type\":\"invalid_request_error\"}}");
            return;
        }
        Turn turn = decide(body);
        String id = "resp_probe" + r.hit();
        String model = body.path("model").asText("probe-responses-1");
        if (body.path("stream").asBoolean(false)) {
            stream(res, turn, id, model);
        } else {
            JsonReply.send(res, 200, response(turn, id, model, "completed", true).toString());
        }
    }

    /** Reasoning (or null), text chunks, or one Bash call; and whether to stream data-only. */
    private record Turn(String reasoning, List<String> text, String command, boolean dataOnly, int inputTokens) {
    }

    private Turn decide(JsonNode body) {
        JsonNode input = body.path("input");
        int tokens = Math.max(1, body.toString().length() / 4);
        if (input.isTextual()) {
            return new Turn(null, MessagesReply.chunks(reply), null, false, tokens);
        }
        JsonNode last = input.get(input.size() - 1);
        for (int i = input.size() - 1; i > 0 && isSystem(last); i--) {
            last = input.get(i - 1); // clients (Claude Code) put system turns after the user's message
        }
        if (last.path("type").asText().equals("function_call_output")) {
            return new Turn(null, MessagesReply.chunks("tool said: " + last.path("output").asText().strip()), null, false, tokens);
        }
        String text = ContentText.of(last.path("content"));
        String reasoning = text.contains("[[reason]]") ? ChatCompletionsApi.REASONING : null;
        boolean dataOnly = text.contains("[[dataonly]]");
        int at = text.indexOf("[[bash:");
        int end = at < 0 ? -1 : text.indexOf("]]", at);
        if (at >= 0 && end > at && offers(body, "Bash")) {
            return new Turn(reasoning, List.of(), text.substring(at + "[[bash:".length(), end), dataOnly, tokens);
        }
        return new Turn(reasoning, MessagesReply.chunks(reply), null, dataOnly, tokens);
    }

    private ObjectNode response(Turn t, String id, String model, String status, boolean withOutput) {
        ObjectNode root = mapper.createObjectNode().put("id", id).put("object", "response").put("created_at", 1).put("status", status)
                .put("model", model);
        root.putNull("error");
        ArrayNode output = root.putArray("output");
        if (withOutput) {
            items(t, id).forEach(output::add);
        }
        if (!status.equals("in_progress")) {
            int out = t.command() != null ? 12 : Math.max(1, String.join("", t.text()).length() / 4);
            root.putObject("usage").put("input_tokens", t.inputTokens()).put("output_tokens", out).put("total_tokens", t.inputTokens() + out)
                    .<ObjectNode>set("input_tokens_details", mapper.createObjectNode().put("cached_tokens", 0))
                    .set("output_tokens_details", mapper.createObjectNode().put("reasoning_tokens", 0));
        }
        return root;
    }

    private List<ObjectNode> items(Turn t, String id) {
        List<ObjectNode> items = new ArrayList<>();
        if (t.reasoning() != null) {
            ObjectNode r = mapper.createObjectNode().put("id", "rs_" + id).put("type", "reasoning");
            r.putArray("summary").addObject().put("type", "summary_text").put("text", t.reasoning());
            items.add(r);
        }
        if (t.command() != null) {
            items.add(call(id, arguments(t)).put("status", "completed"));
        } else {
            ObjectNode m = mapper.createObjectNode().put("id", "msg_" + id).put("type", "message").put("status", "completed").put("role", "assistant");
            m.putArray("content").addObject().put("type", "output_text").put("text", String.join("", t.text())).putArray("annotations");
            items.add(m);
        }
        return items;
    }

    private ObjectNode call(String id, String arguments) {
        return mapper.createObjectNode().put("id", "fc_" + id).put("type", "function_call").put("call_id", "call_" + id).put("name", "Bash")
                .put("arguments", arguments);
    }

    private String arguments(Turn t) {
        return mapper.createObjectNode().put("command", t.command()).put("description", "Run the probe's command").toString();
    }

    private void stream(ServerResponse res, Turn t, String id, String model) {
        try (SseStream sse = new SseStream(res)) {
            Events e = new Events(sse, t.dataOnly());
            e.send(mapper.createObjectNode().put("type", "response.created").set("response", response(t, id, model, "in_progress", false)));
            int index = 0;
            if (t.reasoning() != null) {
                ObjectNode item = mapper.createObjectNode().put("id", "rs_" + id).put("type", "reasoning");
                item.putArray("summary");
                e.send(added(index, item));
                for (String piece : MessagesReply.chunks(t.reasoning())) {
                    e.send(ref("response.reasoning_summary_text.delta", "rs_" + id, index).put("summary_index", 0).put("delta", piece));
                }
                e.send(mapper.createObjectNode().put("type", "response.output_item.done").put("output_index", index).set("item", items(t, id).get(0)));
                index++;
            }
            if (t.command() != null) {
                e.send(added(index, call(id, "").put("status", "in_progress")));
                String args = arguments(t);
                int third = Math.max(1, args.length() / 3);
                for (int i = 0; i < args.length(); i += third) {
                    e.send(ref("response.function_call_arguments.delta", "fc_" + id, index).put("delta", args.substring(i, Math.min(args.length(), i + third))));
                }
                e.send(ref("response.function_call_arguments.done", "fc_" + id, index).put("arguments", args));
                e.send(mapper.createObjectNode().put("type", "response.output_item.done").put("output_index", index)
                        .set("item", call(id, args).put("status", "completed")));
            } else {
                ObjectNode item = mapper.createObjectNode().put("id", "msg_" + id).put("type", "message").put("status", "in_progress").put("role", "assistant");
                item.putArray("content");
                e.send(added(index, item));
                for (String piece : t.text()) {
                    e.send(ref("response.output_text.delta", "msg_" + id, index).put("content_index", 0).put("delta", piece));
                }
                e.send(ref("response.output_text.done", "msg_" + id, index).put("content_index", 0).put("text", String.join("", t.text())));
            }
            ObjectNode done = mapper.createObjectNode().put("type", "response.completed");
            done.set("response", response(t, id, model, "completed", true));
            e.send(done);
            if (t.dataOnly()) {
                e.send(done.deepCopy()); // a repeated terminal chunk, as some gateways send
            }
        }
    }

    private ObjectNode added(int index, ObjectNode item) {
        return mapper.createObjectNode().put("type", "response.output_item.added").put("output_index", index).set("item", item);
    }

    private ObjectNode ref(String type, String itemId, int index) {
        return mapper.createObjectNode().put("type", type).put("item_id", itemId).put("output_index", index);
    }

    /** Writes events with sequence numbers, named or data-only. */
    private static final class Events {
        private final SseStream sse;
        private final boolean dataOnly;
        private int sequence;

        Events(SseStream sse, boolean dataOnly) {
            this.sse = sse;
            this.dataOnly = dataOnly;
        }

        void send(ObjectNode event) {
            event.put("sequence_number", sequence++);
            if (dataOnly) {
                sse.data(event);
            } else {
                sse.send(event.path("type").asText(), event.toString());
            }
        }
    }

    private static boolean isSystem(JsonNode item) {
        String role = item.path("role").asText();
        return role.equals("system") || role.equals("developer");
    }

    private static boolean offers(JsonNode body, String tool) {
        for (JsonNode t : body.path("tools")) {
            if (t.path("name").asText().equals(tool)) {
                return true;
            }
        }
        return false;
    }
}
