package shaper.auth;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The credential strip list: client header fields removed from every request of a provider
 * whose upstream auth is enabled (any {@code -auth-source}, including {@code none}), before the
 * configured credential is attached. It is the README's "Upstream Authentication" list:
 * <ul>
 *   <li>HTTP credential fields: {@code Authorization}, {@code Proxy-Authorization},
 *       {@code X-Api-Key}, {@code Api-Key}, {@code X-Goog-Api-Key};</li>
 *   <li>protocol fields tied to a credential: {@code Anthropic-Version}, {@code Anthropic-Beta};</li>
 *   <li>cloud request-signature families: every {@code x-amz-*} and {@code x-goog-*} field
 *       (a signature made for one account must not reach another).</li>
 * </ul>
 * {@code Cookie} is deliberately absent: cookie-authenticated upstreams would break, so cookies
 * are forwarded verbatim even with auth enabled.
 */
public final class CredentialHeaders {
    /** Lower-case names stripped when auth is enabled. */
    public static final Set<String> STRIPPED_NAMES = Set.of(
            "authorization", "proxy-authorization", "x-api-key", "api-key", "x-goog-api-key",
            "anthropic-version", "anthropic-beta");

    /** Lower-case name prefixes whose every field is stripped when auth is enabled. */
    public static final List<String> STRIPPED_PREFIXES = List.of("x-amz-", "x-goog-");

    private CredentialHeaders() {
    }

    /** Whether a client field called {@code name} (any case) is on the strip list. */
    public static boolean isStripped(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (STRIPPED_NAMES.contains(lower)) {
            return true;
        }
        for (String prefix : STRIPPED_PREFIXES) {
            if (lower.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
