package shaper.cli;

import java.time.Duration;

import picocli.CommandLine.Option;
import shaper.config.WireConfig;

/** Provider-scope flags of the upstream wire (see {@link WireConfig}). */
public final class WireOptions {
    @Option(names = {"-upstream-idle-timeout", "--upstream-idle-timeout"}, paramLabel = "DURATION", defaultValue = "3s",
            description = "Close an idle upstream keep-alive connection after this long instead of reusing it; an upstream's"
                    + " Keep-Alive: timeout=N shortens it (default ${DEFAULT-VALUE}, under the common 5s server default)")
    Duration idleTimeout;

    WireConfig toConfig() {
        return new WireConfig(idleTimeout);
    }
}
