package shaper.retry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Read access to upstream response headers without tying this package to an HTTP library. Names are
 * matched case-insensitively; a missing header yields an empty list, never null.
 */
@FunctionalInterface
public interface HeaderLookup {
    /** Every value of header {@code name} in arrival order; empty when absent. */
    List<String> values(String name);

    /** The first value of {@code name}, trimmed, when present and not blank. */
    default Optional<String> first(String name) {
        for (String v : values(name)) {
            if (v != null && !v.isBlank()) {
                return Optional.of(v.trim());
            }
        }
        return Optional.empty();
    }

    /** True when {@code name} is present with at least one value. */
    default boolean has(String name) {
        return !values(name).isEmpty();
    }

    /**
     * Whether a header whose lower-case name starts with {@code lowerCasePrefix} may be present:
     * false only when the lookup knows none is, so a reader of a whole header family can skip its
     * lookups. Answers true when it cannot tell.
     */
    default boolean mayHaveNameStartingWith(String lowerCasePrefix) {
        return true;
    }

    /** No headers at all (a transport error has none). */
    static HeaderLookup none() {
        return name -> List.of();
    }

    /** A case-insensitive view of a copied map; useful for tests and simple callers. */
    static HeaderLookup of(Map<String, List<String>> headers) {
        Map<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.forEach((name, vals) -> copy.computeIfAbsent(name, k -> new ArrayList<>()).addAll(vals));
        copy.replaceAll((name, vals) -> List.copyOf(vals));
        return name -> copy.getOrDefault(name, List.of());
    }

    /** Convenience for tests: alternating name, value pairs. */
    static HeaderLookup of(String... nameValuePairs) {
        if (nameValuePairs.length % 2 != 0) {
            throw new IllegalArgumentException("nameValuePairs: odd length " + nameValuePairs.length + " (expected: name, value pairs)");
        }
        Map<String, List<String>> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 0; i < nameValuePairs.length; i += 2) {
            map.computeIfAbsent(nameValuePairs[i], k -> new ArrayList<>()).add(nameValuePairs[i + 1]);
        }
        return of(map);
    }
}
