package shaper.transcode.chat;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.transcode.ConversionReport;
import shaper.transcode.JsonFields;
import shaper.transcode.UsageTotal;
import shaper.transcode.ir.Usage;

/**
 * Chat {@code usage} to canonical {@link Usage}. Known spellings: the official
 * {@code prompt_tokens_details.cached_tokens} and {@code completion_tokens_details.reasoning_tokens},
 * the top-level extensions {@code cached_tokens}, {@code prompt_cache_hit_tokens} (DeepSeek) and
 * {@code reasoning_tokens}, and {@code prompt_tokens_details.created_cache_tokens}. Chat's
 * {@code prompt_tokens} counts every prompt token; the canonical {@code input} (like Anthropic's
 * {@code input_tokens}) excludes both cache reads and cache writes, so both are taken out of it:
 * prompt 20, cached 5, created 7 is input 8, read 5, write 7, which add up to the prompt again. A count of the wrong type, or a total
 * with both parts missing, breaks the contract (upstream failure); repairable oddities are notes.
 */
public final class ChatUsage {
    private static final JsonFields F = JsonFields.UPSTREAM;

    private ChatUsage() {
    }

    /** @return {@link Usage#UNKNOWN} when {@code usage} is absent or null */
    public static Usage decode(JsonNode usage, ConversionReport report) {
        UsageTotal counts = UsageTotal.read(usage, "prompt_tokens", "completion_tokens", report);
        if (counts == null) {
            return Usage.UNKNOWN;
        }
        JsonNode promptDetails = details(usage, "prompt_tokens_details");
        JsonNode completionDetails = details(usage, "completion_tokens_details");
        Long cached = first(report, promptDetails, "cached_tokens", usage, "cached_tokens", usage, "prompt_cache_hit_tokens");
        Long created = promptDetails == null ? null : count(promptDetails, "created_cache_tokens", "usage.prompt_tokens_details", report);
        Long reasoning = first(report, completionDetails, "reasoning_tokens", usage, "reasoning_tokens", null, null);
        cached = UsageTotal.clampPart(cached, counts.in(), "usage.cached_tokens", report);
        Long input = UsageTotal.less(counts.in(), cached);
        created = UsageTotal.clampPart(created, input, "usage.prompt_tokens_details.created_cache_tokens", report);
        input = UsageTotal.less(input, created);
        return new Usage(input, counts.out(), cached, created, reasoning);
    }

    private static JsonNode details(JsonNode usage, String name) {
        JsonNode d = usage.get(name);
        if (d == null || d.isNull()) {
            return null;
        }
        return F.object(d, "usage." + name);
    }

    private static Long first(ConversionReport report, JsonNode a, String an, JsonNode b, String bn, JsonNode c, String cn) {
        Long v = a == null ? null : count(a, an, "usage", report);
        if (v == null && b != null) {
            v = count(b, bn, "usage", report);
        }
        if (v == null && c != null) {
            v = count(c, cn, "usage", report);
        }
        return v;
    }

    private static Long count(JsonNode node, String name, String path, ConversionReport report) {
        return UsageTotal.count(node, name, path, report);
    }
}
