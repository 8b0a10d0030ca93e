package shaper.transcode;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Optional surface of a Chat Completions upstream ({@code -transcode-chat-capability}). A capability
 * is exercised only when the client uses the feature; without it the feature is a loss decision
 * ({@link LossKey}), never a silent drop. The CLI defaults are the compatible core that generic
 * and open-weights servers accept.
 */
public enum ChatCapability {
    /** Keep the developer role as {@code role: developer} (Qwen/Llama/DeepSeek templates do not know it). */
    DEVELOPER_ROLE(false),
    /** Render image parts as {@code image_url} content parts. */
    IMAGE_INPUT(false),
    /** Render structured-output formats as {@code response_format}. */
    STRUCTURED_OUTPUTS(false),
    /** Forward the parallel-tool-calls setting as {@code parallel_tool_calls}. */
    PARALLEL_TOOL_CALLS(true),
    /** Forward stop sequences as {@code stop}. */
    STOP_SEQUENCES(false),
    /** Forward reasoning effort (and the Anthropic thinking budget, by the threshold table) as {@code reasoning_effort}. */
    REASONING_EFFORT(false),
    /** Provider reasoning ({@code reasoning} / {@code reasoning_content}) becomes client text. */
    PROVIDER_REASONING_TEXT(false),
    /** Provider reasoning becomes native thinking blocks; wins over {@link #PROVIDER_REASONING_TEXT}. */
    PROVIDER_REASONING_THINKING(true),
    /** Render system/developer turns where they stand instead of one leading system message. */
    SYSTEM_ANYWHERE(false);

    private final boolean byDefault;

    ChatCapability(boolean byDefault) {
        this.byDefault = byDefault;
    }

    /** The name on the command line: the constant's name in lower case. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The out-of-the-box set of a CLI mapping. */
    public static Set<ChatCapability> cliDefaults() {
        Set<ChatCapability> s = EnumSet.noneOf(ChatCapability.class);
        Arrays.stream(values()).filter(c -> c.byDefault).forEach(s::add);
        return s;
    }
}
