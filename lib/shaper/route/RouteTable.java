package shaper.route;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A provider's {@code -limit} patterns in configuration order; the one place that decides whether a
 * request is limited, by which limiter, or exempt. Immutable and thread-safe.
 */
public final class RouteTable {
    /**
     * The patterns used when no {@code -limit} is given (any explicit {@code -limit} replaces all of
     * them): common LLM endpoints, all POST, all on the default pool.
     */
    public static final List<String> DEFAULTS = List.of(
            "POST /chat/completions",
            "POST /completions",
            "POST /responses",
            "POST /api/embeddings",
            "POST /embeddings",
            "POST /images/generations",
            "POST /images/edits",
            "POST /images/variations",
            "POST /audio/speech",
            "POST /audio/transcriptions",
            "POST /audio/translations",
            "POST /moderations",
            "POST /runs",
            "POST /threads",
            "POST /submit_tool_outputs",
            "POST /messages/batches",
            "POST /batches",
            "POST /realtime/sessions",
            "POST /realtime/transcript_sessions",
            "POST /messages",
            "POST /api/generate",
            "POST /api/chat",
            "POST /generateContent",
            "POST /streamGenerateContent");

    private final List<RouteMatch> routes;
    private final List<RouteClass> limiterClasses;
    private final List<String> warnings;

    private RouteTable(List<RouteMatch> routes, List<RouteClass> limiterClasses, List<String> warnings) {
        this.routes = List.copyOf(routes);
        this.limiterClasses = List.copyOf(limiterClasses);
        this.warnings = List.copyOf(warnings);
    }

    /**
     * Builds the table from the {@code -limit} values in order; {@code null} or empty means {@link #DEFAULTS}.
     *
     * @throws IllegalArgumentException for the first value that is not a valid pattern
     */
    public static RouteTable of(List<String> patterns) {
        List<String> texts = patterns == null || patterns.isEmpty() ? DEFAULTS : patterns;
        List<RoutePattern> parsed = texts.stream().map(RoutePattern::parse).toList();
        List<String> warnings = new ArrayList<>();
        Map<String, Integer> limits = new LinkedHashMap<>();
        for (RoutePattern p : parsed) {
            if (p.unlimited()) {
                continue;
            }
            Integer known = limits.get(p.limiterKey());
            if (known == null || (known == 0 && p.limit() > 0)) {
                limits.put(p.limiterKey(), p.limit());
            } else if (p.limit() > 0 && p.limit() != known && p.group() == null) {
                // the same method and path again: the earlier pattern matches every such request first
                warnings.add("WARNING: route " + GoQuote.of(p.raw()) + " repeats the path of an earlier pattern with limit " + known
                        + "; the earlier one matches first. Using " + known + ".");
            } else if (p.limit() > 0 && p.limit() != known) {
                warnings.add("WARNING: route " + GoQuote.of(p.raw()) + " specifies group " + GoQuote.of(p.group())
                        + " with limit " + p.limit() + ", but group already has limit " + known + ". Using " + known + ".");
            }
            if (p.group() != null && looksLikeMisplacedLimit(p.group())) {
                warnings.add("WARNING: route " + GoQuote.of(p.raw()) + " has group " + GoQuote.of(p.group())
                        + "; a limit after the group is part of its name. Write :N before @group.");
            }
        }
        List<RouteMatch> routes = parsed.stream()
                .map(p -> p.unlimited()
                        ? new RouteMatch(p, p.limiterKey(), 0, true)
                        : new RouteMatch(p, p.limiterKey(), limits.get(p.limiterKey()), false))
                .toList();
        List<RouteClass> classes = limits.entrySet().stream().map(e -> new RouteClass(e.getKey(), e.getValue())).toList();
        return new RouteTable(routes, classes, warnings);
    }

    /** The first pattern matching {@code method} and {@code rawPath} (path only, no query), if any. */
    public Optional<RouteMatch> match(String method, String rawPath) {
        List<String> segments = PathSegments.of(rawPath);
        for (RouteMatch route : routes) {
            if (route.pattern().matches(method, segments)) {
                return Optional.of(route);
            }
        }
        return Optional.empty();
    }

    /** The parsed patterns in configuration order. */
    public List<RoutePattern> patterns() {
        return routes.stream().map(RouteMatch::pattern).toList();
    }

    /** Every distinct limiter key of the non-unlimited patterns with its resolved limit, in first-seen order. */
    public List<RouteClass> limiterClasses() {
        return limiterClasses;
    }

    /** Startup warnings about the configuration, each a complete log line; empty when there are none. */
    public List<String> warnings() {
        return warnings;
    }

    // "/messages@messages:3" silently means group "messages:3" on the default pool; easy to write by mistake.
    private static boolean looksLikeMisplacedLimit(String group) {
        int colon = group.lastIndexOf(':');
        if (colon < 0 || colon == group.length() - 1) {
            return false;
        }
        String suffix = group.substring(colon + 1);
        return suffix.equalsIgnoreCase("unlimited") || suffix.chars().allMatch(c -> c >= '0' && c <= '9');
    }
}
