package shaper.transcode.chat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import shaper.transcode.ChatCapability;
import shaper.transcode.ConversionReport;
import shaper.transcode.LossKey;
import shaper.transcode.Protocol;
import shaper.transcode.TranscodeMapping;
import shaper.transcode.ir.Conversation;
import shaper.transcode.ir.OutputFormat;
import shaper.transcode.ir.Reasoning;
import shaper.transcode.ir.ToolChoice;
import shaper.transcode.ir.ToolSpec;

/**
 * The request-level controls of a Chat Completions request: tools and {@code tool_choice}
 * (and {@code parallel_tool_calls}), {@code reasoning_effort} and {@code response_format}, each
 * rendered only under the upstream's capability and otherwise recorded as a loss or note. It exists
 * so {@link ChatRequestRenderer} keeps the message list, the part that differs per turn.
 * Stateless and thread-safe.
 */
final class ChatRequestControls {
    private ChatRequestControls() {
    }

    static void tools(Conversation c, TranscodeMapping m, ObjectNode out, ConversionReport report) {
        if (!c.tools().isEmpty()) {
            ArrayNode tools = out.putArray("tools");
            for (ToolSpec t : c.tools()) {
                ObjectNode fn = tools.addObject().put("type", "function").putObject("function");
                fn.put("name", t.name());
                if (t.description() != null) {
                    fn.put("description", t.description());
                }
                fn.set("parameters", t.parameters());
                if (t.strict() != null) {
                    fn.put("strict", t.strict());
                }
            }
        }
        if (c.toolChoice() != null) {
            switch (c.toolChoice()) {
                case ToolChoice.Auto a -> out.put("tool_choice", "auto");
                case ToolChoice.None n -> out.put("tool_choice", "none");
                case ToolChoice.Required r -> out.put("tool_choice", "required");
                case ToolChoice.Named n -> out.putObject("tool_choice").put("type", "function").putObject("function").put("name", n.name());
            }
        }
        if (c.parallelTools() != null) {
            if (!m.has(ChatCapability.PARALLEL_TOOL_CALLS)) {
                report.loss(LossKey.PARALLEL_TOOL_CALLS, "tool_choice.disable_parallel_tool_use");
            } else if (!c.tools().isEmpty()) {
                // OpenAI rejects parallel_tool_calls on a request without tools.
                out.put("parallel_tool_calls", c.parallelTools());
            }
        }
    }

    static void reasoning(Reasoning r, TranscodeMapping m, ObjectNode out, ConversionReport report) {
        switch (r) {
            case Reasoning.Unspecified u -> {
            }
            case Reasoning.Adaptive a -> {
                // the client delegated the decision to the model: the provider's default applies
            }
            case Reasoning.Disabled d -> report.note(LossKey.THINKING_DISABLED_ELIDED, "thinking");
            case Reasoning.Budget b -> {
                if (m.has(ChatCapability.REASONING_EFFORT)) {
                    out.put("reasoning_effort", b.effort());
                    report.note(LossKey.THINKING_BUDGET_MAPPED, "thinking.budget_tokens");
                } else {
                    report.loss(LossKey.REQUEST_REASONING, "thinking");
                }
            }
            case Reasoning.Effort e -> {
                if (m.has(ChatCapability.REASONING_EFFORT)) {
                    out.put("reasoning_effort", e.effort());
                } else {
                    report.loss(LossKey.REQUEST_REASONING, e.path());
                }
            }
        }
    }

    /** A structured-output format as {@code response_format}, under the {@code structured_outputs} capability. */
    static void format(OutputFormat f, TranscodeMapping m, ObjectNode out, ConversionReport report) {
        if (f instanceof OutputFormat.Text) {
            return;
        }
        if (!m.has(ChatCapability.STRUCTURED_OUTPUTS)) {
            // a Messages client's output_config.format has always been one of its envelope controls
            if (m.route().direction().client() == Protocol.MESSAGES) {
                report.loss(LossKey.ANTHROPIC_CONTROLS, "output_config.format");
            } else {
                report.loss(LossKey.STRUCTURED_OUTPUT, "text.format");
            }
            return;
        }
        ObjectNode rf = out.putObject("response_format");
        switch (f) {
            case OutputFormat.Text t -> throw new IllegalStateException("handled above");
            case OutputFormat.JsonObject j -> rf.put("type", "json_object");
            case OutputFormat.JsonSchema s -> {
                ObjectNode js = rf.put("type", "json_schema").putObject("json_schema").put("name", s.name());
                if (s.description() != null) {
                    js.put("description", s.description());
                }
                js.set("schema", s.schema());
                if (s.strict() != null) {
                    js.put("strict", s.strict());
                }
            }
        }
    }
}
