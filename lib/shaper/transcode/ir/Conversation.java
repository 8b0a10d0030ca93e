package shaper.transcode.ir;

import java.util.List;
import java.util.Objects;

/**
 * A client request, dialect-free.
 *
 * @param model          the client's model name (mapped to the upstream's by the renderer's caller)
 * @param turns          system-channel and dialog turns in client order
 * @param tools          function tools, possibly empty
 * @param toolChoice     null when the client gave none
 * @param parallelTools  the client's parallel-tool-calls setting, null when unset
 * @param maxTokens      null when unset
 * @param temperature    null when unset
 * @param topP           null when unset
 * @param stop           stop sequences, possibly empty
 * @param reasoning      the reasoning request
 * @param stream         whether the client wants a stream
 */
public record Conversation(String model, List<Turn> turns, List<ToolSpec> tools, ToolChoice toolChoice, Boolean parallelTools,
                           Integer maxTokens, Double temperature, Double topP, List<String> stop, Reasoning reasoning,
                           boolean stream) {
    public Conversation {
        if (model == null || model.isEmpty()) {
            throw new IllegalArgumentException("model: empty (expected: non-empty)");
        }
        turns = List.copyOf(turns);
        tools = List.copyOf(tools);
        stop = List.copyOf(stop);
        Objects.requireNonNull(reasoning, "reasoning");
    }
}
