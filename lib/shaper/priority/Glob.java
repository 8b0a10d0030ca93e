package shaper.priority;

import java.util.Locale;

/**
 * A shell-style pattern over a whole value: {@code *} is any run of characters (none included),
 * {@code ?} exactly one, everything else itself. Immutable.
 *
 * @param pattern    as written
 * @param ignoreCase compare case-insensitively (model names and header values; paths are case-sensitive)
 */
public record Glob(String pattern, boolean ignoreCase) {

    public boolean matches(String value) {
        if (value == null) {
            return false;
        }
        String p = ignoreCase ? pattern.toLowerCase(Locale.ROOT) : pattern;
        String v = ignoreCase ? value.toLowerCase(Locale.ROOT) : value;
        // Greedy matcher with one backtrack point (the last '*'): linear for patterns without '*' runs,
        // never exponential.
        int pi = 0;
        int vi = 0;
        int star = -1;
        int resume = 0;
        while (vi < v.length()) {
            if (pi < p.length() && (p.charAt(pi) == '?' || p.charAt(pi) == v.charAt(vi))) {
                pi++;
                vi++;
            } else if (pi < p.length() && p.charAt(pi) == '*') {
                star = pi++;
                resume = vi;
            } else if (star >= 0) {
                pi = star + 1;
                vi = ++resume;
            } else {
                return false;
            }
        }
        while (pi < p.length() && p.charAt(pi) == '*') {
            pi++;
        }
        return pi == p.length();
    }
}
