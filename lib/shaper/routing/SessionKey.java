package shaper.routing;

import java.util.List;
import java.util.function.Function;

/**
 * The session a request belongs to, from the header its client sends on every request of one
 * conversation: Claude Code's {@code X-Claude-Code-Session-Id}, Codex's {@code session_id}
 * (spelled {@code session-id} by some builds). One place, so the affinity table can later be keyed by
 * whatever client identity the proxy settles on.
 */
public final class SessionKey {
    /** The header names looked for, in order. */
    public static final List<String> HEADERS = List.of("x-claude-code-session-id", "session_id", "session-id");

    /** Longer values are not a session id a client sends; they are ignored rather than kept in the table. */
    static final int MAX_LENGTH = 256;

    private SessionKey() {
    }

    /** The session id, or null when the request names none. */
    public static String of(Function<String, String> header) {
        for (String name : HEADERS) {
            String v = header.apply(name);
            if (v != null && !v.isBlank() && v.length() <= MAX_LENGTH) {
                return v;
            }
        }
        return null;
    }
}
