package shaper.transcode;

import com.fasterxml.jackson.databind.node.ObjectNode;

import shaper.transcode.ir.Conversation;

/**
 * The sampling controls of an upstream request in both OpenAI dialects: {@code temperature} and
 * {@code top_p} as they are, the token cap under the dialect's own name ({@code max_tokens} for Chat
 * Completions, {@code max_output_tokens} for Responses). What the client left unset stays absent.
 */
public final class SamplingFields {
    private SamplingFields() {
    }

    public static void put(Conversation c, ObjectNode out, String maxTokensName) {
        if (c.maxTokens() != null) {
            out.put(maxTokensName, c.maxTokens());
        }
        if (c.temperature() != null) {
            out.put("temperature", c.temperature());
        }
        if (c.topP() != null) {
            out.put("top_p", c.topP());
        }
    }
}
