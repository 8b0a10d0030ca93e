package shaper.cli;

import java.net.URI;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import shaper.auth.AuthConfig;
import shaper.config.ProviderNames;
import shaper.config.UpstreamUrl;
import shaper.settings.ProviderConfig;

/** Provider-scope flags: one upstream, where it is mounted, how it is authenticated and how requests to it are shaped. */
public final class ProviderOptions {
    @Option(names = {"-upstream", "--upstream"}, paramLabel = "URL", description = "Upstream base URL (required; http or https)")
    String upstream;

    @Option(names = {"-prefix", "--prefix"}, paramLabel = "PATH",
            description = "Mount path, stripped before forwarding (/anthropic/v1/messages -> /v1/messages); required with several providers")
    String prefix;

    @Option(names = {"-name", "--name"}, paramLabel = "NAME",
            description = "Display name in logs and health (default: the --provider=NAME marker, else derived from the upstream host)")
    String name;

    @Option(names = {"-auth-source", "--auth-source"}, paramLabel = "SOURCE",
            description = "Upstream credential: env:VAR, file:PATH (read once at startup) or none (strip only); unset forwards client headers verbatim")
    String authSource;

    @Option(names = {"-auth-mode", "--auth-mode"}, paramLabel = "MODE",
            description = "How the credential is attached: auto (default), bearer, x-api-key, api-key, header:NAME or none")
    String authMode;

    @Option(names = {"-auth-header", "--auth-header"}, paramLabel = "NAME", description = "Custom credential header name; same as -auth-mode header:NAME")
    String authHeader;

    @Option(names = {"-anthropic-version", "--anthropic-version"}, paramLabel = "VERSION",
            description = "Anthropic-Version sent with the x-api-key mode (default " + AuthConfig.DEFAULT_ANTHROPIC_VERSION + ")")
    String anthropicVersion;

    @Mixin
    AdmissionOptions admission = new AdmissionOptions();

    @Mixin
    RetryOptions retry = new RetryOptions();

    @Mixin
    BreakerOptions breaker = new BreakerOptions();

    @Mixin
    GatewayOptions gateway = new GatewayOptions();

    @Mixin
    WireOptions wire = new WireOptions();

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Mixin
    TranscodeOptions transcode = new TranscodeOptions();

    @Mixin
    BudgetOptions budget = new BudgetOptions();

    @Mixin
    QueueOptions queue = new QueueOptions();

    /**
     * @param fallbackName the marker's name, or {@code null} when the section has none
     * @param sectioned    whether the command line used {@code --provider} markers: an unnamed
     *                     provider is then named after its host, else {@code default}
     */
    ProviderConfig toConfig(String fallbackName, boolean sectioned) {
        URI uri = UpstreamUrl.parse(upstream);
        String resolvedName;
        if (name != null) {
            resolvedName = ProviderNames.check("-name", name);
        } else if (fallbackName != null) {
            resolvedName = fallbackName;
        } else {
            resolvedName = sectioned ? ProviderNames.derive(uri) : ProviderNames.DEFAULT;
        }
        AuthConfig auth = AuthConfig.parse(authSource, authMode, authHeader, anthropicVersion);
        return new ProviderConfig(resolvedName, uri, prefix == null ? "" : prefix, admission.toConfig(), retry.toConfig(),
                breaker.toConfig(), gateway.toConfig(wire.toConfig()), auth, cluster.toConfig(), transcode.toConfig(), budget.toConfig(),
                queue.priority(), queue.adaptive(), queue.clients());
    }

    /** Whether {@code -prefix} was given (an explicit {@code /} counts). */
    boolean hasPrefix() {
        return prefix != null;
    }

    /** The {@code -name} value, or {@code null}. */
    String explicitName() {
        return name;
    }
}
