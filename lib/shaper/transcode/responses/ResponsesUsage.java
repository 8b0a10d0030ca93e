package shaper.transcode.responses;

import com.fasterxml.jackson.databind.node.ObjectNode;

import shaper.transcode.ConversionReport;
import shaper.transcode.JsonFields;
import shaper.transcode.LossKey;
import shaper.transcode.UsageTotal;
import shaper.transcode.ir.Usage;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Canonical usage to and from a Responses {@code usage} object. Responses counts cached tokens
 * inside {@code input_tokens} ({@code input_tokens_details.cached_tokens} is a part of it) while the
 * IR keeps them apart, so nothing is counted twice either way. Unknown usage is rendered as
 * {@code usage: null} and an unknown breakdown by leaving its details object out, never an
 * invented zero; each is a loss decision.
 */
public final class ResponsesUsage {
    private static final JsonFields F = JsonFields.UPSTREAM;

    private ResponsesUsage() {
    }

    /** Writes {@code usage} into a response object. */
    static void write(ObjectNode response, Usage u, ConversionReport report) {
        if (u.unknown()) {
            report.loss(LossKey.USAGE_UNKNOWN, "usage");
            response.putNull("usage");
            return;
        }
        if (u.input() == null || u.output() == null) {
            report.loss(LossKey.USAGE_UNKNOWN, u.input() == null ? "usage.input_tokens" : "usage.output_tokens");
        }
        // Responses' input_tokens counts every prompt token, cache reads and writes included
        long cached = u.cacheRead() == null ? 0 : u.cacheRead();
        long written = u.cacheWrite() == null ? 0 : u.cacheWrite();
        long input = (u.input() == null ? 0 : u.input()) + cached + written;
        long output = u.output() == null ? 0 : u.output();
        ObjectNode usage = response.putObject("usage").put("input_tokens", input);
        if (u.cacheRead() == null) {
            report.loss(LossKey.USAGE_CACHE_READ_UNKNOWN, "usage.input_tokens_details.cached_tokens");
        } else {
            usage.putObject("input_tokens_details").put("cached_tokens", u.cacheRead());
        }
        usage.put("output_tokens", output);
        if (u.reasoning() == null) {
            report.loss(LossKey.USAGE_REASONING_UNKNOWN, "usage.output_tokens_details.reasoning_tokens");
        } else {
            usage.putObject("output_tokens_details").put("reasoning_tokens", u.reasoning());
        }
        usage.put("total_tokens", input + output);
    }

    /** Reads an upstream Responses {@code usage}; {@link Usage#UNKNOWN} when absent. */
    public static Usage decode(JsonNode usage, ConversionReport report) {
        UsageTotal counts = UsageTotal.read(usage, "input_tokens", "output_tokens", report);
        if (counts == null) {
            return Usage.UNKNOWN;
        }
        Long cached = detail(usage, "input_tokens_details", "cached_tokens", report);
        Long reasoning = detail(usage, "output_tokens_details", "reasoning_tokens", report);
        cached = UsageTotal.clampPart(cached, counts.in(), "usage.input_tokens_details.cached_tokens", report);
        return new Usage(UsageTotal.less(counts.in(), cached), counts.out(), cached, null, reasoning);
    }

    private static Long detail(JsonNode usage, String object, String name, ConversionReport report) {
        JsonNode d = usage.get(object);
        if (d == null || d.isNull()) {
            return null;
        }
        return count(F.object(d, "usage." + object), name, "usage." + object, report);
    }

    private static Long count(JsonNode node, String name, String path, ConversionReport report) {
        return UsageTotal.count(node, name, path, report);
    }
}
