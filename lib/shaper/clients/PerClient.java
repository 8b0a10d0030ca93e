package shaper.clients;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import shaper.config.ConfigException;

/**
 * A per-client number with a default: {@code -client-weight}, {@code -client-concurrency},
 * {@code -client-queue-depth}. Each repeat of the flag is either {@code N} (the default for every
 * client) or {@code NAME=N} (that client's override), so a config file sets overrides with the same key.
 *
 * @param fallback the value of a client without an override
 * @param named    overrides by client name, in the order given
 */
public record PerClient(int fallback, Map<String, Integer> named) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:@/-]{1," + ClientIdentity.MAX_LENGTH + "}");

    public PerClient {
        named = Map.copyOf(named);
    }

    /** The value for client {@code name}. */
    public int of(String name) {
        return named.getOrDefault(name, fallback);
    }

    /**
     * Parses the flag's values.
     *
     * @param flag     the flag's name, for messages
     * @param fallback the default when no bare {@code N} is given
     * @param min      the smallest value allowed
     * @param max      the largest value allowed
     * @throws ConfigException naming the flag and value that are wrong
     */
    public static PerClient parse(String flag, List<String> values, int fallback, int min, int max) {
        int dflt = fallback;
        Map<String, Integer> named = new LinkedHashMap<>();
        for (String raw : values) {
            String v = raw.trim();
            int eq = v.lastIndexOf('=');
            String name = eq < 0 ? null : v.substring(0, eq).trim();
            if (name != null && !NAME.matcher(name).matches()) {
                throw new ConfigException(flag + " \"" + raw + "\": \"" + name + "\" is not a client name (letters, digits, . _ : @ / -)");
            }
            int n = number(flag, raw, eq < 0 ? v : v.substring(eq + 1).trim(), min, max);
            if (name == null) {
                dflt = n;
            } else if (named.put(name, n) != null) {
                throw new ConfigException(flag + " \"" + raw + "\": client \"" + name + "\" is given twice");
            }
        }
        return new PerClient(dflt, new LinkedHashMap<>(named));
    }

    private static int number(String flag, String raw, String text, int min, int max) {
        try {
            int n = Integer.parseInt(text);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below with the range
        }
        throw new ConfigException(flag + " \"" + raw + "\": expected N or NAME=N with N in " + min + ".." + max);
    }
}
