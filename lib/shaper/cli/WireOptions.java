package shaper.cli;

import java.nio.file.Path;
import java.time.Duration;

import picocli.CommandLine.Option;
import shaper.auth.AuthSource;
import shaper.config.ConfigException;
import shaper.config.WireConfig;
import shaper.proxy.client.EgressProxy;

/** Provider-scope flags of the upstream wire (see {@link WireConfig}). */
public final class WireOptions {
    /** A connection is given up before the upstream closes it: a request written as it closes is lost unread or not. */
    @Option(names = {"-upstream-idle-timeout", "--upstream-idle-timeout"},
            paramLabel = "DURATION",
            defaultValue = "3s",
            description = "Close an idle upstream connection after this long instead of reusing it; Keep-Alive: timeout=N shortens it")
    Duration idleTimeout;

    /** Checked here so a bad URL is a usage error at startup, naming the flag; credentials in it are refused. */
    @Option(names = {"-upstream-proxy", "--upstream-proxy"},
            paramLabel = "URL",
            description = "Forward proxy upstream: http://host[:port] (CONNECT), socks5://host[:port] or direct (default: https_proxy etc.)")
    String proxy;

    /**
     * A source, never the secret: argv and the printed configuration show only where it is. Its
     * syntax is checked here; the secret is read when the provider is assembled.
     */
    @Option(names = {"-upstream-proxy-auth", "--upstream-proxy-auth"}, paramLabel = "env:VAR|file:PATH",
            description = "Where the egress proxy's user:password is (sent as Proxy-Authorization: Basic on CONNECT)")
    String proxyAuth;

    /**
     * Added to, not replacing, the system trust: a corporate proxy that re-signs TLS needs its CA
     * trusted while public upstreams keep working.
     */
    @Option(description = "PEM CA certificates trusted for an https upstream, besides the system trust store",
            names = {"-upstream-ca", "--upstream-ca"}, paramLabel = "FILE")
    Path ca;

    @Option(names = {"-upstream-ca-only", "--upstream-ca-only"}, arity = "0..1", fallbackValue = "true", defaultValue = "false",
            description = "Trust only -upstream-ca's certificates, not the system trust store")
    boolean caOnly;

    /** The certificate half of mutual TLS; checked with its key when the provider is assembled. */
    @Option(names = {"-upstream-client-cert", "--upstream-client-cert"}, paramLabel = "FILE", description = "PEM client certificate for mutual TLS (with -upstream-client-key)")
    Path clientCert;

    @Option(names = {"-upstream-client-key", "--upstream-client-key"},
            description = "Unencrypted PKCS#8 PEM private key (BEGIN PRIVATE KEY) of -upstream-client-cert",
            paramLabel = "FILE")
    Path clientKey;

    WireConfig toConfig() {
        if (proxy != null && !proxy.equals(WireConfig.DIRECT)) {
            try {
                EgressProxy.parse(proxy);
            } catch (IllegalArgumentException e) {
                throw new ConfigException("-upstream-proxy: " + e.getMessage());
            }
        }
        if (proxyAuth != null) {
            AuthSource.parse("-upstream-proxy-auth", proxyAuth, false);
        }
        return new WireConfig(idleTimeout, proxy, proxyAuth, new WireConfig.UpstreamTlsFiles(ca, caOnly, clientCert, clientKey));
    }
}
