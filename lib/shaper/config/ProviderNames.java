package shaper.config;

import java.net.URI;
import java.util.Locale;

/**
 * Provider display names: derived from the upstream host ({@code api.anthropic.com} becomes
 * {@code anthropic}) or given with {@code --provider=NAME} / {@code -name}. A name shows unquoted in
 * logfmt lines and health JSON, so it is 1–64 visible ASCII characters without quotes, backslash or
 * {@code =}.
 */
public final class ProviderNames {
    /** The name of a single provider configured without {@code --provider} markers or {@code -name}. */
    public static final String DEFAULT = "default";

    private static final int MAX_LENGTH = 64;

    private ProviderNames() {
    }

    public static String derive(URI upstream) {
        String host = upstream.getHost().toLowerCase(Locale.ROOT);
        if (host.startsWith("[")) {
            return host;
        }
        if (host.startsWith("api.") || host.startsWith("api-")) {
            host = host.substring(4);
        }
        if (host.chars().allMatch(c -> Character.isDigit(c) || c == '.')) {
            return host;
        }
        int dot = host.indexOf('.');
        return dot > 0 ? host.substring(0, dot) : host;
    }

    /**
     * Checks a name given on the command line.
     *
     * @param flag how the name was given, for the message ({@code -name}, {@code --provider})
     * @throws ConfigException naming the flag when the name is empty, too long or has a character logs cannot show plainly
     */
    public static String check(String flag, String name) {
        boolean ok = !name.isEmpty() && name.length() <= MAX_LENGTH;
        for (int i = 0; ok && i < name.length(); i++) {
            char c = name.charAt(i);
            ok = c > 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '=';
        }
        if (!ok) {
            throw new ConfigException(flag + ": invalid provider name (expected: 1-" + MAX_LENGTH
                    + " visible ASCII characters without quotes, backslash or '=')");
        }
        return name;
    }
}
