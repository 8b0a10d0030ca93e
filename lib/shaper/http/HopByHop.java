package shaper.http;

import java.util.Set;

/**
 * The hop-by-hop header fields: connection-specific fields of RFC 9110 §7.6.1 plus the legacy ones
 * every proxy drops. They describe one connection, so the proxy never forwards them and never lets
 * a setting put a credential in one (it would be stripped, or would change the framing).
 */
public final class HopByHop {
    /**
     * Lower-case names: {@code Connection}, {@code Proxy-Connection}, {@code Keep-Alive}, {@code TE},
     * {@code Trailer}, {@code Transfer-Encoding}, {@code Upgrade}, {@code Proxy-Authenticate},
     * {@code Proxy-Authorization}. A message's own {@code Connection} header may name more; those are
     * the reader's to add.
     */
    public static final Set<String> NAMES = Set.of(
            "connection", "proxy-connection", "keep-alive", "te", "trailer",
            "transfer-encoding", "upgrade", "proxy-authenticate", "proxy-authorization");

    private HopByHop() {
    }
}
