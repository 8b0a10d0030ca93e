package shaper.transcode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import shaper.ProjectRoot;

/** {@code LOSS_MATRIX.md} is generated from the registry and must not drift from it. */
class LossMatrixTest {
    @Test
    void committedLossMatrixIsTheGeneratedOne() throws Exception {
        Path file = ProjectRoot.find().resolve("LOSS_MATRIX.md");
        String expected = LossMatrix.markdown();
        String actual = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        if (!expected.equals(actual)) {
            Path out = ProjectRoot.find().resolve("LOSS_MATRIX.md.expected");
            Files.writeString(out, expected, StandardCharsets.UTF_8);
            assertEquals(expected, actual, "LOSS_MATRIX.md drifted from LossKey; the generated text is in " + out + " (copy it over)");
        }
    }

    @Test
    void everyRegistryKeyAndCapabilityIsInTheMatrix() {
        String md = LossMatrix.markdown();
        for (LossKey k : LossKey.values()) {
            assertTrue(md.contains("| `" + k.wireName() + "` |"), k.wireName());
        }
        for (ChatCapability c : ChatCapability.values()) {
            assertTrue(md.contains("| `" + c.wireName() + "` |"), c.wireName());
        }
    }

    /**
     * The spec's list, plus the one key added for a field today's Claude Code sends by default whose
     * drop costs the user nothing ({@code anthropic_safeguards}: Claude Code then checks risky tool
     * calls itself); every other new key of that surface is a note or falls under a listed key.
     */
    @Test
    void cliDefaultApprovalsAreExactlyTheSpecListAndTheClaudeCodeSurface() {
        assertEquals(java.util.Set.of("reasoning_summary", "authenticated_thinking", "mid_conversation_system", "responses_controls",
                        "anthropic_controls", "builtin_tools", "usage_unknown", "usage_cache_read_unknown", "usage_cache_write_unknown",
                        "usage_reasoning_unknown", "request_reasoning", "developer_role", "tool_result_error_status", "anthropic_safeguards"),
                LossPolicy.cliDefaults().stream().map(LossKey::wireName).collect(java.util.stream.Collectors.toSet()));
        assertEquals(java.util.Set.of(ChatCapability.PARALLEL_TOOL_CALLS, ChatCapability.PROVIDER_REASONING_THINKING),
                ChatCapability.cliDefaults());
    }
}
