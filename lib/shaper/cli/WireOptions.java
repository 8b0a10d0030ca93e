package shaper.cli;

import java.time.Duration;

import picocli.CommandLine.Option;
import shaper.config.ConfigException;
import shaper.config.WireConfig;
import shaper.proxy.client.EgressProxy;

/** Provider-scope flags of the upstream wire (see {@link WireConfig}). */
public final class WireOptions {
    @Option(names = {"-upstream-idle-timeout", "--upstream-idle-timeout"}, paramLabel = "DURATION", defaultValue = "3s",
            description = "Close an idle upstream keep-alive connection after this long instead of reusing it; an upstream's"
                    + " Keep-Alive: timeout=N shortens it (default ${DEFAULT-VALUE}, under the common 5s server default)")
    Duration idleTimeout;

    @Option(names = {"-upstream-proxy", "--upstream-proxy"}, paramLabel = "URL",
            description = "Forward proxy for upstream connections: http://host[:port] (CONNECT) or socks5://host[:port];"
                    + " 'direct' for none (default: https_proxy / http_proxy / all_proxy and no_proxy from the environment)")
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
