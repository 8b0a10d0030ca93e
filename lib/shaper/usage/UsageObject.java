package shaper.usage;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One dialect's {@code usage} object read into Anthropic's split; {@code null} is a count the
 * object did not carry (a later report may fill it, an earlier one stays).
 *
 * <p>The dialect is told by the object's own fields, so a scanner needs no hint from the route:
 * {@code prompt_tokens}/{@code completion_tokens} are Chat Completions (whose prompt counts every
 * input token: cache reads {@code prompt_tokens_details.cached_tokens}, or the top-level
 * {@code cached_tokens} / DeepSeek's {@code prompt_cache_hit_tokens}, and cache writes
 * {@code prompt_tokens_details.created_cache_tokens} are taken out of it); {@code total_tokens} or
 * an {@code *_tokens_details} object with {@code input_tokens} are Responses (whose
 * {@code input_tokens} includes {@code input_tokens_details.cached_tokens}); anything else with
 * {@code input_tokens}/{@code output_tokens} is Anthropic, whose split is already ours.
 */
record UsageObject(Long input, Long output, Long cacheRead, Long cacheWrite, Long reasoning) {
    static final UsageObject EMPTY = new UsageObject(null, null, null, null, null);

    /** @return {@link #EMPTY} for a missing, null or non-object node */
    static UsageObject of(JsonNode u) {
        if (u == null || !u.isObject()) {
            return EMPTY;
        }
        if (u.has("prompt_tokens") || u.has("completion_tokens")) {
            return chat(u);
        }
        if (u.has("total_tokens") || u.has("input_tokens_details") || u.has("output_tokens_details")) {
            return responses(u);
        }
        return new UsageObject(count(u, "input_tokens"), count(u, "output_tokens"), count(u, "cache_read_input_tokens"),
                count(u, "cache_creation_input_tokens"), null);
    }

    private static UsageObject chat(JsonNode u) {
        JsonNode details = u.path("prompt_tokens_details");
        Long prompt = count(u, "prompt_tokens");
        Long cached = first(count(details, "cached_tokens"), count(u, "cached_tokens"), count(u, "prompt_cache_hit_tokens"));
        Long created = count(details, "created_cache_tokens");
        Long reasoning = first(count(u.path("completion_tokens_details"), "reasoning_tokens"), count(u, "reasoning_tokens"), null);
        Long input = prompt == null ? null : Math.max(0, prompt - orZero(cached) - orZero(created));
        return new UsageObject(input, count(u, "completion_tokens"), cached, created, reasoning);
    }

    private static UsageObject responses(JsonNode u) {
        Long all = count(u, "input_tokens");
        Long cached = count(u.path("input_tokens_details"), "cached_tokens");
        Long input = all == null ? null : Math.max(0, all - orZero(cached));
        return new UsageObject(input, count(u, "output_tokens"), cached, null,
                count(u.path("output_tokens_details"), "reasoning_tokens"));
    }

    /** This report refined by a later one: each count the later one carries replaces this one's. */
    UsageObject then(UsageObject later) {
        return new UsageObject(pick(input, later.input), pick(output, later.output), pick(cacheRead, later.cacheRead),
                pick(cacheWrite, later.cacheWrite), pick(reasoning, later.reasoning));
    }

    boolean empty() {
        return input == null && output == null && cacheRead == null && cacheWrite == null && reasoning == null;
    }

    TokenUsage reported(String model) {
        return new TokenUsage(model, orZero(input), orZero(output), orZero(cacheRead), orZero(cacheWrite), orZero(reasoning),
                TokenUsage.Source.REPORTED);
    }

    private static Long pick(Long older, Long newer) {
        return newer != null ? newer : older;
    }

    private static Long first(Long a, Long b, Long c) {
        return a != null ? a : b != null ? b : c;
    }

    private static long orZero(Long n) {
        return n == null ? 0 : n;
    }

    /** A non-negative integer field, else null (a string, a fraction or a negative count is no count). */
    private static Long count(JsonNode node, String name) {
        JsonNode v = node == null ? null : node.get(name);
        if (v == null || !v.canConvertToLong() || !v.isIntegralNumber()) {
            return null;
        }
        return Math.max(0, v.asLong());
    }
}
