package shaper.clients;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import shaper.auth.CredentialHeaders;
import shaper.config.ConfigException;

/**
 * One place a client identity can come from, an entry of {@code -client-id}.
 *
 * @param kind   which source
 * @param header the header name of a {@link Kind#HEADER} source, lower case; empty otherwise
 */
public record ClientSource(Kind kind, String header) {
    /** The kinds of source. */
    public enum Kind {
        /** The name of the {@code -client-key} the client presented. */
        KEY,
        /** A request header's value. */
        HEADER,
        /** The agent session the request belongs to, from the headers the agents send. */
        SESSION
    }

    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    /**
     * Parses {@code -client-id}: a comma-separated list of {@code key}, {@code header:NAME} and
     * {@code session}; empty = no source, every request anonymous.
     *
     * @throws ConfigException naming the entry that is wrong
     */
    public static List<ClientSource> parseList(String spec) {
        List<ClientSource> out = new ArrayList<>();
        for (String entry : spec == null || spec.isBlank() ? new String[0] : spec.split(",", -1)) {
            ClientSource source = of(entry.trim(), spec);
            if (out.contains(source)) {
                throw new ConfigException("-client-id \"" + spec + "\": \"" + source + "\" is listed twice");
            }
            out.add(source);
        }
        return out;
    }

    /** One entry of {@code spec}. */
    private static ClientSource of(String entry, String spec) {
        String header = entry.startsWith("header:") ? entry.substring(7) : null;
        if (header != null && TOKEN.matcher(header).matches()) {
            ClientSource source = new ClientSource(Kind.HEADER, header.toLowerCase(Locale.ROOT));
            String h = source.header();
            if (CredentialHeaders.isStripped(h) || h.equals("cookie") || h.equals("proxy-authorization")) {
                // an identity is logged, journaled and a metrics label: a credential must never become one
                throw new ConfigException("-client-id \"" + spec + "\": \"" + entry + "\" carries credentials and cannot name a client"
                        + " (use key: the name of the -client-key presented)");
            }
            return source;
        }
        return switch (entry) {
            case "key" -> new ClientSource(Kind.KEY, "");
            case "session" -> new ClientSource(Kind.SESSION, "");
            default -> throw new ConfigException("-client-id \"" + spec + "\": \"" + entry
                    + "\" is not a source (expected: key, header:NAME or session, comma-separated)");
        };
    }

    /** Whether the shaper owns this header ({@code x-shaper-...}), so it is removed before forwarding. */
    public boolean shapersOwnHeader() {
        return kind == Kind.HEADER && header.startsWith("x-shaper-");
    }

    @Override
    public String toString() {
        return kind == Kind.HEADER ? "header:" + header : kind.name().toLowerCase(Locale.ROOT);
    }
}
