package shaper.transcode.pipeline;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Function;

import shaper.config.ConfigException;
import shaper.transcode.ChatCapability;
import shaper.transcode.LossKey;

/**
 * The one rule all three additive layers share ({@code -transcode-chat-capability},
 * {@code -transcode-allow-client-query}, {@code -transcode-allow-loss}): start from the defaults
 * (none with {@code -transcode-strict-defaults}), add every positive name, withdraw every
 * {@code !name}. Values are repeatable and comma/space separated. Every name, positive or negated,
 * must be known; a name given both ways is a conflict. All failures are startup errors.
 */
final class NameSelection {
    private NameSelection() {
    }

    /**
     * @param flag     the flag, for messages
     * @param values   the raw flag values
     * @param defaults the out-of-the-box names
     * @param resolve  maps a name to its value, or null when unknown
     * @param valid    every valid name, listed in the message for an unknown one; empty when the names are free-form
     */
    static <T> Set<T> resolve(String flag, Iterable<String> values, Set<T> defaults, Function<String, T> resolve,
                              java.util.List<String> valid) {
        Set<T> positive = new LinkedHashSet<>();
        Set<T> negative = new LinkedHashSet<>();
        Set<String> positiveNames = new LinkedHashSet<>();
        for (String value : values) {
            for (String raw : value.split("[,\\s]+")) {
                if (raw.isEmpty()) {
                    continue;
                }
                boolean negated = raw.startsWith("!");
                String name = negated ? raw.substring(1) : raw;
                T t = name.isEmpty() ? null : resolve.apply(name);
                if (t == null) {
                    throw new ConfigException(flag + ": unknown name \"" + raw + "\""
                            + (valid.isEmpty() ? "" : " (valid names: " + String.join(", ", valid) + ")"));
                }
                (negated ? negative : positive).add(t);
                if (!negated) {
                    positiveNames.add(name);
                }
            }
        }
        for (T t : negative) {
            if (positive.contains(t)) {
                throw new ConfigException(flag + ": conflicting values for \"" + name(t, positiveNames)
                        + "\": given both positively and negated (!" + name(t, positiveNames) + ")");
            }
        }
        Set<T> out = new LinkedHashSet<>(defaults);
        out.removeAll(negative);
        out.addAll(positive);
        return out;
    }

    private static <T> String name(T t, Set<String> names) {
        return t instanceof String s ? s : t instanceof ChatCapability c ? c.wireName() : t instanceof LossKey k ? k.wireName() : t.toString();
    }
}
