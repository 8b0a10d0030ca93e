package shaper.cli;

import java.net.URI;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import shaper.config.ProviderConfig;
import shaper.config.UpstreamUrl;

/** Provider-scope flags: one upstream and how requests to it are shaped. */
public final class ProviderOptions {
    /** How an unnamed single provider shows in logs and metrics. */
    static final String DEFAULT_NAME = "default";

    @Option(names = {"-upstream", "--upstream"}, paramLabel = "URL", description = "Upstream base URL (required; http or https)")
    String upstream;

    @Mixin
    AdmissionOptions admission = new AdmissionOptions();

    @Mixin
    RetryOptions retry = new RetryOptions();

    @Mixin
    BreakerOptions breaker = new BreakerOptions();

    @Mixin
    GatewayOptions gateway = new GatewayOptions();

    ProviderConfig toConfig() {
        URI uri = UpstreamUrl.parse(upstream);
        return new ProviderConfig(DEFAULT_NAME, uri, "", admission.toConfig(), retry.toConfig(), breaker.toConfig(),
                gateway.toConfig());
    }
}
