package shaper.cli;

import java.time.Duration;

import picocli.CommandLine.Option;
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

    WireConfig toConfig() {
        if (proxy != null && !proxy.equals(WireConfig.DIRECT)) {
            try {
                EgressProxy.parse(proxy);
            } catch (IllegalArgumentException e) {
                throw new ConfigException("-upstream-proxy: " + e.getMessage());
            }
        }
        return new WireConfig(idleTimeout, proxy);
    }
}
