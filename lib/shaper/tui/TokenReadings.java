package shaper.tui;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import shaper.budget.ProviderTokens;
import shaper.budget.TokenBudget;
import shaper.usage.TokenCounters;

/**
 * Turns a provider's token counters into a {@link TokenFrame}: the per-model table (less the reset's
 * baseline) and tokens per minute, the tokens of exchanges that ended in the last 60 s (each frame's
 * totals are kept for a minute; the oldest one at or before a minute ago is the base). Confined to the
 * render loop's thread.
 */
final class TokenReadings {
    static final Duration WINDOW = Duration.ofMinutes(1);

    private record Sample(Instant at, long in, long out) {
    }

    private final Map<String, ArrayDeque<Sample>> windows = new HashMap<>();
    private final Map<String, Map<String, ModelRow>> baseline = new HashMap<>();

    TokenFrame read(String provider, ProviderTokens tokens, Instant now) {
        Map<String, ModelRow> all = models(tokens.counters());
        long in = 0;
        long out = 0;
        for (ModelRow m : all.values()) {
            in += m.input() + m.cacheRead() + m.cacheWrite();
            out += m.output();
        }
        ArrayDeque<Sample> w = windows.computeIfAbsent(provider, k -> new ArrayDeque<>());
        w.addLast(new Sample(now, in, out));
        Instant from = now.minus(WINDOW);
        while (w.size() > 1 && !second(w).at().isAfter(from)) {
            w.removeFirst(); // the next one is old enough to be the base
        }
        Sample base = w.peekFirst();
        Map<String, ModelRow> before = baseline.getOrDefault(provider, Map.of());
        List<ModelRow> rows = new ArrayList<>();
        all.values().forEach(m -> rows.add(m.since(before.get(m.model()))));
        rows.removeIf(m -> m.requests() == 0 && m.total() == 0);
        rows.sort(Comparator.comparingLong(ModelRow::total).reversed().thenComparing(ModelRow::model));
        TokenBudget budget = tokens.budget().orElse(null);
        return new TokenFrame(in - base.in(), out - base.out(), rows, tokens.rateLimits().state(),
                budget == null ? Map.of() : budget.levels(), budget == null ? Map.of() : budget.waits(),
                budget == null ? 0 : budget.queued());
    }

    private static Sample second(ArrayDeque<Sample> w) {
        java.util.Iterator<Sample> it = w.iterator();
        it.next();
        return it.next();
    }

    /** The dashboard's reset: the model table starts from zero (tokens per minute goes on). */
    void reset(String provider, ProviderTokens tokens) {
        baseline.put(provider, models(tokens.counters()));
    }

    private static Map<String, ModelRow> models(TokenCounters counters) {
        Map<String, long[]> by = new LinkedHashMap<>(); // requests, input, output, cache_read, cache_write
        for (TokenCounters.Sample s : counters.requests()) {
            by.computeIfAbsent(s.model(), k -> new long[5])[0] += s.value();
        }
        for (TokenCounters.Sample s : counters.tokens()) {
            int i = switch (s.label()) {
                case "input" -> 1;
                case "output" -> 2;
                case "cache_read" -> 3;
                case "cache_write" -> 4;
                default -> -1; // reasoning is a part of output, counted there already
            };
            if (i > 0) {
                by.computeIfAbsent(s.model(), k -> new long[5])[i] += s.value();
            }
        }
        Map<String, ModelRow> out = new LinkedHashMap<>();
        by.forEach((model, v) -> out.put(model, new ModelRow(model, v[0], v[1], v[2], v[3], v[4])));
        return out;
    }
}
