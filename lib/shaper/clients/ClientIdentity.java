package shaper.clients;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Who is asking: the first of the configured {@link ClientSource}s that yields a usable name, else
 * {@link #ANONYMOUS}. The one place an exchange's identity is read, whatever transport started it:
 * an HTTP request passes its headers, a turn of a long-lived socket its handshake's headers.
 * Immutable and thread-safe; equal when the sources are (a reload compares configurations).
 */
public record ClientIdentity(List<ClientSource> sources) {
    /** The identity of a request no source names. */
    public static final String ANONYMOUS = "anonymous";
    /** The longest value taken as a name; a longer one yields nothing. */
    public static final int MAX_LENGTH = 128;
    /**
     * The headers that name an agent session, in the order asked: Claude Code sends
     * {@code x-claude-code-session-id} on every Messages request; Codex names its session on its
     * Responses requests (both spellings are asked; {@code SessionIdentityTest} runs the real clients).
     */
    public static final List<String> SESSION_HEADERS = List.of("x-claude-code-session-id", "session-id", "session_id");

    /** No source: every request is anonymous. */
    public static final ClientIdentity NONE = new ClientIdentity(List.of());

    /** @param sources the sources, in the order asked */
    public ClientIdentity {
        sources = List.copyOf(sources);
    }

    /**
     * The identity of one exchange.
     *
     * @param header the request's first value of a header (name in any case), or null when absent
     * @param key    the name of the client key the request presented, empty when keys are not required
     */
    public String of(Function<String, String> header, Optional<String> key) {
        for (ClientSource s : sources) {
            String name = switch (s.kind()) {
                case KEY -> key.orElse(null);
                case HEADER -> usable(header.apply(s.header()));
                case SESSION -> session(header);
            };
            if (name != null) {
                return name;
            }
        }
        return ANONYMOUS;
    }

    /**
     * The agent session a request belongs to, from the first session header with a usable value, or
     * null: the one reading of a session, for the {@code session} source and for session affinity.
     */
    public static String session(Function<String, String> header) {
        for (String h : SESSION_HEADERS) {
            String name = usable(header.apply(h));
            if (name != null) {
                return name;
            }
        }
        return null;
    }

    /** The trimmed value when it is 1..{@value #MAX_LENGTH} visible ASCII characters, else null. */
    static String usable(String value) {
        if (value == null) {
            return null;
        }
        String v = value.trim();
        if (v.isEmpty() || v.length() > MAX_LENGTH) {
            return null;
        }
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                return null;
            }
        }
        return v;
    }

    @Override
    public String toString() {
        return sources.isEmpty() ? "(none)" : String.join(",", sources.stream().map(ClientSource::toString).toList());
    }
}
