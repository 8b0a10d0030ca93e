package shaper.settings;

import java.net.URI;
import java.util.Objects;

import shaper.admission.AdmissionConfig;
import shaper.auth.AuthConfig;
import shaper.breaker.BreakerConfig;
import shaper.clients.ClientConfig;
import shaper.budget.BudgetConfig;
import shaper.cluster.ClusterConfig;
import shaper.config.GatewayConfig;
import shaper.config.ProviderNames;
import shaper.limit.AdaptiveConfig;
import shaper.mount.MountPrefix;
import shaper.priority.PriorityConfig;
import shaper.retry.RetryConfig;
import shaper.transcode.TranscodeConfig;

/**
 * Provider-scope settings: one upstream and how it is reached.
 *
 * @param name      display name for logs and health ({@code -name}, the marker's name, derived from the
 *                  upstream host, or {@code default} for an unnamed single provider); see {@link ProviderNames#check}
 * @param upstream  validated http(s) base URL; its path is joined before the request path
 * @param prefix    mount path stripped before forwarding, normalized by {@link MountPrefix#parse}:
 *                  {@code ""} for the bare root, else {@code /a[/b...]} without a trailing slash
 * @param admission concurrency limits, queue semantics and slot holds
 * @param retry     the retry transport
 * @param breaker   the circuit breaker
 * @param gateway   the Responses upstream, the large-request gate and the mirror log
 * @param auth      upstream credential settings, not yet resolved; {@link AuthConfig#DISABLED} forwards verbatim
 * @param cluster   where the limiters keep their slots; {@link ClusterConfig#IN_PROCESS} by default
 * @param transcode transcoded routes and their target auth; {@link TranscodeConfig#OFF} for none
 * @param budget    budget-paced admission ({@code -rpm}, {@code -tpm}, {@code -itpm}, {@code -otpm},
 *                  {@code -budget-from-headers}); {@link BudgetConfig#OFF} by default
 * @param priority  priority classes; {@link PriorityConfig#NONE} for one FIFO per limiter
 * @param adaptive  the adaptive concurrency limit; {@link AdaptiveConfig#OFF} for fixed limits
 * @param clients   client identities, weights and caps; {@link ClientConfig#DEFAULTS} by default
 */
public record ProviderConfig(String name, URI upstream, String prefix, AdmissionConfig admission, RetryConfig retry,
                             BreakerConfig breaker, GatewayConfig gateway, AuthConfig auth, ClusterConfig cluster,
                             TranscodeConfig transcode, BudgetConfig budget, PriorityConfig priority, AdaptiveConfig adaptive,
                             ClientConfig clients) {
    public ProviderConfig {
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(priority, "priority");
        Objects.requireNonNull(adaptive, "adaptive");
        Objects.requireNonNull(clients, "clients");
        Objects.requireNonNull(transcode, "transcode");
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(breaker, "breaker");
        Objects.requireNonNull(gateway, "gateway");
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(cluster, "cluster");
        ProviderNames.check("name", name);
        prefix = MountPrefix.parse(prefix).path();
    }

    /**
     * This provider with other cluster settings and every other component as it is (a reload keeps the
     * running cluster settings: they cannot change live).
     */
    public ProviderConfig withCluster(ClusterConfig other) {
        return new ProviderConfig(name, upstream, prefix, admission, retry, breaker, gateway, auth, other, transcode, budget,
                priority, adaptive, clients);
    }

    /** The parsed mount path. */
    public MountPrefix mountPrefix() {
        return MountPrefix.parse(prefix);
    }
}
