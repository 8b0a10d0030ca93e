package shaper.probe;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.helidon.http.Method;
import io.helidon.webserver.http.ServerResponse;

/**
 * An OpenAI-compatible Chat Completions upstream under {@code /chat}, so the transcoder can be
 * tried with one command: {@code POST /chat/v1/chat/completions} and {@code GET /chat/v1/models}.
 * What it answers is decided by the last message:
 * <ul>
 *   <li>a {@code role: tool} message: the text {@code tool said: <content>};</li>
 *   <li>a user message containing {@code [[bash:COMMAND]]} when a {@code Bash} tool is offered: a
 *       {@code Bash} tool call with {@code {"command":COMMAND,...}}, its arguments split over several chunks
 *       (when Codex's {@code exec_command} is offered instead: that tool with {@code {"cmd":COMMAND}});</li>
 *   <li>otherwise the configured reply text.</li>
 * </ul>
 * A user message containing {@code [[reason]]} gets {@code reasoning_content} before the answer
 * (the DeepSeek/Qwen spelling). Streams ({@code "stream": true}) send the text in several deltas,
 * a finish chunk, a usage chunk when {@code stream_options.include_usage} is set, then {@code [DONE]}.
 * Anything else under {@code /chat} is 404, as on a chat-only server ({@code count_tokens} included).
 */
final class ChatCompletionsApi {
    /** The reasoning text sent for {@code [[reason]]}. */
    static final String REASONING = "Thinking it over: the probe considers the question.";

    private final ObjectMapper mapper;
    private final String reply;

    ChatCompletionsApi(ObjectMapper mapper, String reply) {
        this.mapper = mapper;
        this.reply = reply;
    }

    void respond(ProbeRequest r, ServerResponse res) {
        String path = r.remainder();
        if (r.method().equals(Method.GET) && path.equals("/v1/models")) {
            JsonReply.send(res, 200, "{\"object\":\"list\",\"data\":[{\"id\":\"probe-chat-1\",\"object\":\"model\",\"owned_by\":\"probe\"}]}");
            return;
        }
        if (!r.method().equals(Method.POST) || !path.equals("/v1/chat/completions")) {
            JsonReply.noSuchRoute(res, r);
            return;
        }
        complete(r, res, MessagesReply.chunks(reply));
    }

    /** Answers a chat completion request (the caller routed it), a text answer being {@code replyChunks}. */
    void complete(ProbeRequest r, ServerResponse res, List<String> replyChunks) {
        JsonNode body = r.json();
        if (!body.isObject() || !body.path("messages").isArray() || body.path("messages").isEmpty()) {
            JsonReply.send(res, 400, "{\"error\":{\"message\":\"messages is required\",\"type\":\"invalid_request_error\"}}");
            return;
        }
        Turn turn = decide(body, replyChunks);
        String model = body.path("model").asText("probe-chat-1");
        String id = "chatcmpl-probe" + r.hit();
        if (body.path("stream").asBoolean(false)) {
            stream(res, turn, id, model, body.path("stream_options").path("include_usage").asBoolean(false));
        } else {
            JsonReply.send(res, 200, document(turn, id, model).toString());
        }
    }

    /** What to answer: reasoning (or null), text chunks, or one tool call. */
    private record Turn(String reasoning, List<String> text, String toolName, String toolArguments, int promptTokens) {
    }

    private Turn decide(JsonNode body, List<String> replyChunks) {
        JsonNode messages = body.path("messages");
        JsonNode last = messages.get(messages.size() - 1);
        int prompt = promptTokens(body);
        String lastText = ContentText.of(last.path("content"));
        if (last.path("role").asText().equals("tool")) {
            return new Turn(null, MessagesReply.chunks("tool said: " + lastText.strip()), null, null, prompt);
        }
        String reasoning = lastText.contains("[[reason]]") ? REASONING : null;
        int at = lastText.indexOf("[[bash:");
        int end = at < 0 ? -1 : lastText.indexOf("]]", at);
        if (at >= 0 && end > at && offers(body, "Bash")) {
            String command = lastText.substring(at + "[[bash:".length(), end);
            ObjectNode args = mapper.createObjectNode().put("command", command).put("description", "Run the probe's command");
            return new Turn(reasoning, List.of(), "Bash", args.toString(), prompt);
        }
        if (at >= 0 && end > at && offers(body, "exec_command")) {
            // Codex's shell tool, as a Responses client on this upstream offers it
            String command = lastText.substring(at + "[[bash:".length(), end);
            return new Turn(reasoning, List.of(), "exec_command", mapper.createObjectNode().put("cmd", command).toString(), prompt);
        }
        return new Turn(reasoning, replyChunks, null, null, prompt);
    }

    private ObjectNode document(Turn t, String id, String model) {
        ObjectNode root = mapper.createObjectNode().put("id", id).put("object", "chat.completion").put("created", 1).put("model", model);
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        ObjectNode message = choice.putObject("message").put("role", "assistant");
        if (t.reasoning() != null) {
            message.put("reasoning_content", t.reasoning());
        }
        if (t.toolName() != null) {
            message.putNull("content");
            ObjectNode call = message.putArray("tool_calls").addObject().put("id", "call_" + id).put("type", "function");
            call.putObject("function").put("name", t.toolName()).put("arguments", t.toolArguments());
            choice.put("finish_reason", "tool_calls");
        } else {
            message.put("content", String.join("", t.text()));
            choice.put("finish_reason", "stop");
        }
        usage(root, t);
        return root;
    }

    private void stream(ServerResponse res, Turn t, String id, String model, boolean includeUsage) {
        try (SseStream sse = new SseStream(res)) {
            sse.data(chunk(id, model).set("choices", mapper.createArrayNode().add(delta(mapper.createObjectNode().put("role", "assistant")))));
            if (t.reasoning() != null) {
                for (String piece : MessagesReply.chunks(t.reasoning())) {
                    sse.data(choiceChunk(id, model, mapper.createObjectNode().put("reasoning_content", piece)));
                }
            }
            if (t.toolName() != null) {
                List<String> pieces = split(t.toolArguments(), 3);
                ObjectNode first = mapper.createObjectNode();
                ObjectNode call = first.putArray("tool_calls").addObject().put("index", 0).put("id", "call_" + id).put("type", "function");
                call.putObject("function").put("name", t.toolName()).put("arguments", "");
                sse.data(choiceChunk(id, model, first));
                for (String piece : pieces) {
                    ObjectNode d = mapper.createObjectNode();
                    d.putArray("tool_calls").addObject().put("index", 0).putObject("function").put("arguments", piece);
                    sse.data(choiceChunk(id, model, d));
                }
            } else {
                for (String piece : t.text()) {
                    sse.data(choiceChunk(id, model, mapper.createObjectNode().put("content", piece)));
                }
            }
            ObjectNode finish = chunk(id, model);
            ObjectNode choice = finish.putArray("choices").addObject().put("index", 0);
            choice.putObject("delta");
            choice.put("finish_reason", t.toolName() != null ? "tool_calls" : "stop");
            sse.data(finish);
            if (includeUsage) {
                ObjectNode u = chunk(id, model);
                u.putArray("choices");
                usage(u, t);
                sse.data(u);
            }
            sse.raw("data: [DONE]\n\n");
        }
    }

    private ObjectNode chunk(String id, String model) {
        return mapper.createObjectNode().put("id", id).put("object", "chat.completion.chunk").put("created", 1).put("model", model);
    }

    private ObjectNode choiceChunk(String id, String model, ObjectNode delta) {
        ObjectNode c = chunk(id, model);
        c.putArray("choices").add(delta(delta));
        return c;
    }

    private ObjectNode delta(ObjectNode delta) {
        ObjectNode choice = mapper.createObjectNode().put("index", 0);
        choice.set("delta", delta);
        choice.putNull("finish_reason");
        return choice;
    }

    /** The completion tokens a text answer reports: its characters / 4, at least 1. */
    static int completionTokens(List<String> text) {
        return Math.max(1, String.join("", text).length() / 4);
    }

    /** The prompt tokens a request body reports: its length / 4, at least 1. */
    static int promptTokens(JsonNode body) {
        return Math.max(1, body.toString().length() / 4);
    }

    private static void usage(ObjectNode root, Turn t) {
        int completion = t.toolName() != null ? 12 : completionTokens(t.text());
        root.putObject("usage").put("prompt_tokens", t.promptTokens()).put("completion_tokens", completion)
                .put("total_tokens", t.promptTokens() + completion);
    }

    private static boolean offers(JsonNode body, String tool) {
        for (JsonNode t : body.path("tools")) {
            if (t.path("function").path("name").asText().equals(tool)) {
                return true;
            }
        }
        return false;
    }


    private static List<String> split(String s, int parts) {
        List<String> out = new ArrayList<>();
        int size = Math.max(1, (s.length() + parts - 1) / parts);
        for (int i = 0; i < s.length(); i += size) {
            out.add(s.substring(i, Math.min(s.length(), i + size)));
        }
        return out;
    }
}
