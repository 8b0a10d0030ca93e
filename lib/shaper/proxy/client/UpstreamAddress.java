package shaper.proxy.client;

import java.net.URI;

/** Where an upstream's connections go: host, port (80/443 by default) and whether TLS is spoken. */
record UpstreamAddress(String host, int port, boolean tls) {
    static UpstreamAddress of(URI base) {
        boolean tls = base.getScheme().equalsIgnoreCase("https");
        return new UpstreamAddress(base.getHost(), base.getPort() >= 0 ? base.getPort() : (tls ? 443 : 80), tls);
    }

    /** The {@code Host} field, as clients write it: the port only when it is not the scheme's default. */
    String hostField() {
        return port == (tls ? 443 : 80) ? host : host + ":" + port;
    }
}
