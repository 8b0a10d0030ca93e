package shaper.proxy.client;

import java.util.Objects;

import shaper.auth.ProxyCredentials;

/**
 * How an upstream's connections are opened: straight or through a forward proxy, and with which
 * TLS trust and client key for an {@code https} upstream. Equal values open the same connections,
 * so a reload that finds them equal keeps the pools.
 *
 * @param egress the forward proxy, or null for a direct connection
 * @param tls    the TLS setup; never null ({@link UpstreamTls#SYSTEM} by default)
 */
public record Dialing(EgressProxy egress, UpstreamTls tls) {
    /** Direct, with the JDK's default TLS. */
    public static final Dialing DIRECT = new Dialing(null, UpstreamTls.SYSTEM);

    public Dialing {
        Objects.requireNonNull(tls, "tls");
    }

    /** The same, with the egress proxy (if there is one) logged in with {@code login} (null: none). */
    public Dialing withLogin(ProxyCredentials login) {
        return egress == null || login == null ? this : new Dialing(egress.withCredentials(login), tls);
    }
}
