package shaper.cli;

import java.util.List;

/**
 * One flag of the proxy as every view of the options shows it: {@code -h}, the configuration
 * file's key, the JSON Schema and the README tables.
 *
 * @param key          the flag's name without the dash: the file's key ({@code queue-timeout})
 * @param names        every spelling the command line accepts ({@code -queue-timeout}, {@code --queue-timeout})
 * @param scope        server or provider
 * @param kind         the value type
 * @param paramLabel   the value's label in {@code -h} ({@code DURATION}, {@code URL}); empty for booleans
 * @param defaultValue the default as the flag would spell it, or {@code null} when unset by default
 * @param description  one line, without the default (the views append it)
 * @param fileKey      whether the configuration file may set it ({@code -h}, {@code -version} and the
 *                     {@code -config} flags themselves are command line only)
 */
public record FlagSpec(String key, List<String> names, Scope scope, FlagKind kind, String paramLabel, String defaultValue,
                       String description, boolean fileKey) {
    public enum Scope {
        SERVER, PROVIDER;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public FlagSpec {
        names = List.copyOf(names);
    }

    /** The spelling the help and errors use: {@code -key}. */
    public String flag() {
        return "-" + key;
    }

    public boolean repeatable() {
        return kind == FlagKind.LIST;
    }
}
