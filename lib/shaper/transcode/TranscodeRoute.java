package shaper.transcode;

import java.util.Locale;
import java.util.Objects;

import shaper.config.ConfigException;
import shaper.mount.RequestPaths;

/**
 * One mapping: {@code POST clientPath} in the client dialect becomes {@code POST upstreamPath} in the
 * upstream dialect. Only POST is intercepted; any other method on the path stays passthrough.
 *
 * @param direction    the conversion
 * @param clientPath   canonical client path (what route keys compare), never with {@code ?} or {@code #}
 * @param upstreamPath the path sent upstream, joined after the upstream base path
 */
public record TranscodeRoute(Direction direction, String clientPath, String upstreamPath) {
    public TranscodeRoute {
        Objects.requireNonNull(direction, "direction");
        clientPath = canonical("client", clientPath);
        upstreamPath = canonical("upstream", upstreamPath);
    }

    /** {@code -transcode-messages-chat}. */
    public static final TranscodeRoute MESSAGES_CHAT = new TranscodeRoute(Direction.MESSAGES_CHAT, "/v1/messages", "/v1/chat/completions");
    /** {@code -transcode-responses-chat}. */
    public static final TranscodeRoute RESPONSES_CHAT = new TranscodeRoute(Direction.RESPONSES_CHAT, "/v1/responses", "/v1/chat/completions");
    /** {@code -transcode-messages-responses}. */
    public static final TranscodeRoute MESSAGES_RESPONSES = new TranscodeRoute(Direction.MESSAGES_RESPONSES, "/v1/messages", "/v1/responses");

    /**
     * Parses {@code clientProto@clientPath=upstreamProto@upstreamPath}.
     *
     * @throws ConfigException naming the value and what is wrong with it
     */
    public static TranscodeRoute parse(String value) {
        int eq = value.indexOf('=');
        if (eq < 0) {
            throw bad(value, "expected clientProto@clientPath=upstreamProto@upstreamPath");
        }
        String[] client = side(value, value.substring(0, eq));
        String[] upstream = side(value, value.substring(eq + 1));
        try {
            Protocol c = Protocol.client(client[0]);
            Protocol u = Protocol.upstream(upstream[0]);
            Direction d = Direction.of(c, u).orElseThrow(() -> new ConfigException(
                    "no transcoding from " + c.spelling() + " to " + u.spelling()));
            return new TranscodeRoute(d, client[1], upstream[1]);
        } catch (ConfigException e) {
            throw bad(value, e.getMessage());
        }
    }

    /** Whether a request is intercepted: POST on this client path (compared canonically). */
    public boolean matches(String method, String rawPath) {
        return "POST".equalsIgnoreCase(method) && clientPath.equals(key(rawPath));
    }

    private static String[] side(String value, String side) {
        int at = side.indexOf('@');
        if (at <= 0 || at == side.length() - 1) {
            throw bad(value, "each side is proto@/path");
        }
        return new String[] {side.substring(0, at), side.substring(at + 1)};
    }

    private static String canonical(String which, String path) {
        Objects.requireNonNull(path, which + "Path");
        if (!path.startsWith("/")) {
            throw new ConfigException(which + " path \"" + path + "\" must start with /");
        }
        if (path.indexOf('?') >= 0 || path.indexOf('#') >= 0) {
            throw new ConfigException(which + " path \"" + path + "\" must not contain ? or #");
        }
        return key(path);
    }

    /**
     * The route key: dot segments resolved, unreserved escapes decoded, lower case, no trailing
     * slash, so {@code /V1/messages/} and {@code /v1/%6Dessages} are one route, as the limiter sees them.
     */
    static String key(String rawPath) {
        String p = RequestPaths.decodeUnreserved(RequestPaths.resolveDots(rawPath)).toLowerCase(Locale.ROOT);
        while (p.length() > 1 && p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }

    private static ConfigException bad(String value, String why) {
        return new ConfigException("-transcode-route \"" + value + "\": " + why);
    }
}
