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
 * @param format         the requested answer shape ({@link OutputFormat.Text} when the dialect has none)
 */
public record Conversation(String model, List<Turn> turns, List<ToolSpec> tools, ToolChoice toolChoice, Boolean parallelTools,
                           Integer maxTokens, Double temperature, Double topP, List<String> stop, Reasoning reasoning,
                           boolean stream, OutputFormat format) {
    public Conversation {
        Objects.requireNonNull(format, "format");
        if (model == null || model.isEmpty()) {
            throw new IllegalArgumentException("model: empty (expected: non-empty)");
        }
        turns = List.copyOf(turns);
        tools = List.copyOf(tools);
        stop = List.copyOf(stop);
        Objects.requireNonNull(reasoning, "reasoning");
    }

    /** A conversation in a dialect without output formats (free text). */
    public Conversation(String model, List<Turn> turns, List<ToolSpec> tools, ToolChoice toolChoice, Boolean parallelTools,
                        Integer maxTokens, Double temperature, Double topP, List<String> stop, Reasoning reasoning, boolean stream) {
        this(model, turns, tools, toolChoice, parallelTools, maxTokens, temperature, topP, stop, reasoning, stream, new OutputFormat.Text());
    }
}
