package shaper.transcode;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The loss registry: every non-portable feature the transcoder can meet, each gated by exactly one
 * granular, direction-specific key. A <em>policy</em> key is approved or rejected by
 * {@link LossPolicy}; a <em>note</em> is recorded on the exchange without a decision (a sanctioned
 * encoding that keeps every content byte). {@code LOSS_MATRIX.md} is generated from this enum
 * ({@link LossMatrix}) and a test fails when the file drifts. Order is the registry order.
 */
public enum LossKey {
    PREVIOUS_RESPONSE_ID(Kind.POLICY, false, "previous_response_id / item_reference cannot be reproduced on a stateless upstream", Dirs.RESPONSES_IN),
    REQUEST_TOP_LOGPROBS(Kind.POLICY, false, "the Responses top_logprobs request field", Dirs.RESPONSES_IN),
    REQUEST_SERVICE_TIER(Kind.POLICY, false, "the Responses service_tier request field", Dirs.RESPONSES_IN),
    REQUEST_TRUNCATION(Kind.POLICY, false, "the Responses truncation request field", Dirs.RESPONSES_IN),
    MULTIPLE_SYSTEM_TURNS(Kind.POLICY, false, "accepted for compatibility; no direction loses it: a Responses upstream keeps every later system turn"
            + " in place as an input message", Dirs.NONE),
    SYSTEM_NON_TEXT_CONTENT(Kind.POLICY, false, "a system prompt with non-text content", Dirs.ALL),
    MID_CONVERSATION_SYSTEM(Kind.POLICY, true, "a system turn after dialog turns is consolidated into the one leading system message"
            + " (Jinja chat templates reject system messages after index 0); a leading-only merge is a note under this key", Dirs.TO_CHAT),
    TOOL_SCHEMA_STRICTNESS(Kind.POLICY, false, "Messages tools carry no strict flag; the Responses contract requires one, so strict:false is emitted", Dirs.MESSAGES_RESPONSES),
    TOOL_RESULT_ERROR_STATUS(Kind.POLICY, true, "a failed tool result (is_error) is rendered with a visible [tool_result_error] prefix before its content", Dirs.MESSAGES_IN),
    TOOL_RESULT_MULTIMODAL_CONTENT(Kind.POLICY, false, "an image or document inside a tool result has no chat tool-message form", Dirs.TO_CHAT),
    OUTPUT_ITEM_BOUNDARIES(Kind.POLICY, false, "Responses output items with no Messages form (hosted tool calls) are dropped", Dirs.MESSAGES_RESPONSES),
    OUTPUT_PHASE(Kind.POLICY, false, "the Responses commentary/final_answer phase of a replayed assistant message is dropped", Dirs.RESPONSES_IN),
    MISSING_STREAM_SENTINEL(Kind.NOTE, false, "a chat stream ended after its finish_reason without data: [DONE]; the held terminal is released at end of stream", Dirs.FROM_CHAT),
    MISSING_EVENT_NAME(Kind.NOTE, false, "a Responses SSE frame had no event: line and was routed by its JSON type", Dirs.MESSAGES_RESPONSES),
    USAGE_UNKNOWN(Kind.POLICY, true, "the upstream reported no usage at all; a Messages client sees zero counts, a Responses client usage null", Dirs.ALL),
    USAGE_TOTAL_MISMATCH(Kind.NOTE, false, "the upstream total differs from input + output; the parts are relayed", Dirs.ALL),
    USAGE_TOTAL_DERIVED(Kind.NOTE, false, "exactly one usage count was missing and was derived from the total", Dirs.ALL),
    IMAGE_DETAIL_ORIGINAL(Kind.POLICY, false, "the Responses image detail original is mapped to chat high", Dirs.RESPONSES_IN),
    IMAGE_DETAIL_INVENTED(Kind.NOTE, false, "an Anthropic image has no detail; auto is chosen where the target requires one", Dirs.MESSAGES_RESPONSES),
    REPORT_OVERFLOW(Kind.NOTE, false, "the conversion report reached its 4096-entry bound; the exchange still succeeds", Dirs.ALL),
    USAGE_CACHE_READ_UNKNOWN(Kind.POLICY, true, "the upstream reported no cache-read breakdown; the client sees null, never an invented zero", Dirs.ALL),
    USAGE_CACHE_WRITE_UNKNOWN(Kind.POLICY, true, "the upstream reported no cache-write breakdown; the client sees null", Dirs.MESSAGES_IN),
    USAGE_REASONING_UNKNOWN(Kind.POLICY, true, "the upstream reported no reasoning-token breakdown", Dirs.RESPONSES_IN),
    USAGE_CACHE_EXCEEDS_INPUT(Kind.NOTE, false, "cached tokens exceeded the input total and were clamped to it", Dirs.ALL),
    USAGE_NEGATIVE_COUNTS(Kind.NOTE, false, "negative usage counts were clamped to 0", Dirs.ALL),
    PROVIDER_REASONING_TEXT(Kind.POLICY, false, "chat reasoning / reasoning_content in a response with neither reasoning capability is dropped", Dirs.FROM_CHAT),
    REQUEST_REASONING(Kind.POLICY, true, "an Anthropic thinking budget or output_config.effort, or a Responses reasoning.effort, the target cannot"
            + " take is dropped", Dirs.ALL),
    REASONING_SUMMARY(Kind.POLICY, true, "reasoning summaries, request or output side", Dirs.RESPONSES_IN),
    TOOL_RESULT_JSON_ENVELOPE(Kind.POLICY, false, "a tool result with images becomes the deterministic transcode_version 1 JSON text envelope", Dirs.MESSAGES_RESPONSES),
    DEVELOPER_ROLE(Kind.POLICY, true, "the developer/system distinction is lost (developer turns render as system)", Dirs.RESPONSES_IN),
    STRUCTURED_OUTPUT(Kind.POLICY, false, "a structured-output format the upstream capability set cannot take", Dirs.RESPONSES_IN),
    PARALLEL_TOOL_CALLS(Kind.POLICY, false, "the parallel tool calls setting without the parallel_tool_calls capability", Dirs.TO_CHAT),
    STOP_SEQUENCES(Kind.POLICY, false, "stop sequences without the stop_sequences capability", Dirs.MESSAGES_IN),
    IMAGE_INPUT(Kind.POLICY, false, "image input without the image_input capability", Dirs.TO_CHAT),
    DOCUMENT_INPUT(Kind.POLICY, false, "document (PDF, plain-text source) input", Dirs.ALL),
    AUTHENTICATED_THINKING(Kind.POLICY, true, "Anthropic signed (or redacted) thinking in replayed history cannot cross protocols and is dropped", Dirs.MESSAGES_IN),
    TOP_K(Kind.POLICY, false, "top_k sampling", Dirs.MESSAGES_IN),
    LOGPROBS(Kind.POLICY, false, "token logprobs in a Responses answer have no Messages form and are dropped", Dirs.MESSAGES_RESPONSES),
    RESPONSES_CONTROLS(Kind.POLICY, true, "include / client_metadata are noted and prompt_cache_key is dropped; background, max_tool_calls, prompt,"
            + " safety_identifier and status are errors under every policy", Dirs.RESPONSES_IN),
    ANTHROPIC_CONTROLS(Kind.POLICY, true, "Anthropic envelope controls (metadata, context_management edits, service_tier, container,"
            + " output_config.task_budget, an output_config.format the target cannot take, cache_control hints) are dropped", Dirs.MESSAGES_IN),
    ANTHROPIC_SAFEGUARDS(Kind.POLICY, true, "Anthropic server-side safeguards (safeguards: dangerous_tool_use and its classifier context) are not"
            + " evaluated by the upstream; Claude Code gets no verdict and checks risky tool calls itself (its own classifier requests,"
            + " or it asks)", Dirs.MESSAGES_IN),
    REQUEST_CITATIONS(Kind.POLICY, false, "citation structure on text blocks is dropped; the text is kept", Dirs.MESSAGES_IN),
    BUILTIN_TOOLS(Kind.POLICY, true, "Responses built-in tools (web_search, ...) are dropped", Dirs.RESPONSES_IN),
    ANTHROPIC_SERVER_TOOLS(Kind.POLICY, false, "Anthropic server tools (web_search_20250305, server_tool_use, ...) are dropped", Dirs.MESSAGES_IN),
    RESPONSE_SERVICE_TIER(Kind.POLICY, false, "the service tier a Responses upstream actually served (other than default) is dropped", Dirs.MESSAGES_RESPONSES),
    LEGACY_FUNCTION_CALL(Kind.NOTE, false, "the deprecated chat function_call becomes one tool call with an id synthesized from the response id", Dirs.FROM_CHAT),
    TOOL_RESULT_TEXT_JOIN(Kind.NOTE, false, "a multi-part all-text tool result is joined with \\n into one tool message or output (every byte kept)", Dirs.ALL),
    SYNTHETIC_THINKING_SCRUBBED(Kind.NOTE, false, "a thinking block carrying the proxy's marker signature was removed from replayed history", Dirs.MESSAGES_IN),
    THINKING_BUDGET_MAPPED(Kind.NOTE, false, "an enabled thinking budget was mapped to reasoning_effort by the threshold table", Dirs.MESSAGES_CHAT),
    THINKING_DISABLED_ELIDED(Kind.NOTE, false, "thinking type disabled renders nothing (the chat absence of reasoning_effort)", Dirs.MESSAGES_CHAT),
    THINKING_DISPLAY(Kind.NOTE, false, "thinking.display (summarized, omitted, updates) asks how Anthropic shows its own thinking; provider"
            + " reasoning reaches the client as the capabilities decide", Dirs.MESSAGES_IN),
    EFFORT_MAPPED(Kind.NOTE, false, "an Anthropic effort above high (xhigh, max) is sent as high, the highest effort every target takes", Dirs.MESSAGES_IN),
    DEFERRED_TOOL_LOADING(Kind.NOTE, false, "a tool marked defer_loading is sent in full as an ordinary tool (the upstream has no tool search):"
            + " more prompt tokens, nothing lost", Dirs.MESSAGES_IN),
    TOOL_REFERENCE_TEXT(Kind.NOTE, false, "a tool_reference block in a tool result (tool search) becomes the text [tool_reference] NAME; the"
            + " referenced tool itself travels in full with the request's tools", Dirs.MESSAGES_IN);

    /** Whether the key is decided by the policy or only recorded. */
    public enum Kind { POLICY, NOTE }

    private final Kind kind;
    private final boolean cliDefault;
    private final String description;
    private final Set<Direction> directions;

    LossKey(Kind kind, boolean cliDefault, String description, Set<Direction> directions) {
        this.kind = kind;
        this.cliDefault = cliDefault;
        this.description = description;
        this.directions = directions;
    }

    /** The granular name, as given to {@code -transcode-allow-loss}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public Kind kind() {
        return kind;
    }

    /** Approved out of the box on a CLI mapping (never on the strict programmatic policy). */
    public boolean cliDefault() {
        return cliDefault;
    }

    public String description() {
        return description;
    }

    /** The directions in which the key can be reached. */
    public Set<Direction> directions() {
        return directions;
    }

    /** The policy key named {@code name}, if any. */
    public static Optional<LossKey> byName(String name) {
        for (LossKey k : values()) {
            if (k.wireName().equals(name)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }

    /** Direction sets used by the registry, named so each row reads as a sentence. */
    private static final class Dirs {
        static final Set<Direction> NONE = EnumSet.noneOf(Direction.class);
        static final Set<Direction> ALL = EnumSet.allOf(Direction.class);
        static final Set<Direction> RESPONSES_IN = EnumSet.of(Direction.RESPONSES_CHAT);
        static final Set<Direction> RESPONSES_OUT = EnumSet.of(Direction.RESPONSES_CHAT, Direction.MESSAGES_RESPONSES);
        static final Set<Direction> MESSAGES_IN = EnumSet.of(Direction.MESSAGES_CHAT, Direction.MESSAGES_RESPONSES);
        static final Set<Direction> MESSAGES_CHAT = EnumSet.of(Direction.MESSAGES_CHAT);
        static final Set<Direction> MESSAGES_RESPONSES = EnumSet.of(Direction.MESSAGES_RESPONSES);
        static final Set<Direction> TO_CHAT = EnumSet.of(Direction.RESPONSES_CHAT, Direction.MESSAGES_CHAT);
        static final Set<Direction> FROM_CHAT = TO_CHAT;

        private Dirs() {
        }
    }
}
