package shaper.proxy.upgrade;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether an upstream's {@code 101 Switching Protocols} switched to a protocol the client asked for.
 * RFC 9110 section 7.8: a server must not switch to a protocol the request's {@code Upgrade} field did
 * not offer, and its {@code 101} names the protocols it switches to. A {@code 101} that names no
 * protocol, or one the client did not offer, would hand the client a connection speaking something
 * it never agreed to, so the proxy answers {@code 502} instead of splicing it. Protocol tokens
 * ({@code name[/version]}) are compared whole and case-insensitively. Pure and stateless.
 */
final class UpgradeProtocols {
    /** Longest protocol token quoted in a log line: the value comes from the upstream. */
    private static final int MAX_QUOTED = 64;

    private UpgradeProtocols() {
    }

    /** The protocol tokens of {@code Upgrade} field values, in order, blanks dropped. */
    static List<String> tokens(List<String> values) {
        List<String> out = new ArrayList<>();
        for (String value : values) {
            for (String token : value.split(",")) {
                if (!token.isBlank()) {
                    out.add(token.trim());
                }
            }
        }
        return out;
    }

    /**
     * Why the upstream's switch is refused, for the log, or empty when it switched only to protocols
     * the client offered.
     *
     * @param offered  the request's {@code Upgrade} field values
     * @param answered the {@code 101}'s {@code Upgrade} field values
     */
    static Optional<String> refusal(List<String> offered, List<String> answered) {
        List<String> asked = tokens(offered);
        List<String> switched = tokens(answered);
        if (switched.isEmpty()) {
            return Optional.of("upstream answered 101 without naming a protocol when " + quote(asked) + " was requested");
        }
        for (String protocol : switched) {
            if (asked.stream().noneMatch(protocol::equalsIgnoreCase)) {
                return Optional.of("upstream tried to switch to " + quote(List.of(protocol)) + " when " + quote(asked) + " was requested");
            }
        }
        return Optional.empty();
    }

    /** Tokens as {@code 'a, b'}: printable ASCII only and bounded, so an upstream cannot forge log fields. */
    private static String quote(List<String> tokens) {
        String joined = String.join(", ", tokens);
        StringBuilder sb = new StringBuilder("'");
        for (int i = 0; i < joined.length() && i < MAX_QUOTED; i++) {
            char c = joined.charAt(i);
            sb.append(c >= 0x20 && c < 0x7f && c != '"' && c != '\'' ? c : '?');
        }
        return sb.append(joined.length() > MAX_QUOTED ? "...'" : "'").toString();
    }
}
