package shaper.probe;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A request message's content as plain text, the way both OpenAI dialects spell it: a string, or
 * an array of parts whose {@code text} fields are joined. It exists so the Chat Completions and
 * Responses fakes read a prompt the same way.
 */
final class ContentText {
    private ContentText() {
    }

    static String of(JsonNode content) {
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder sb = new StringBuilder();
        for (JsonNode part : content) {
            sb.append(part.path("text").asText(""));
        }
        return sb.toString();
    }
}
