package shaper.proxy;

import java.util.Objects;
import java.util.Optional;

import shaper.admission.AdmissionChain;
import shaper.admission.ProviderLimiters;
import shaper.auth.UpstreamAuth;
import shaper.breaker.CircuitBreaker;
import shaper.budget.ProviderTokens;
import shaper.cluster.ClusterBackend;
import shaper.limit.TimeSource;
import shaper.observe.ExchangePublisher;
import shaper.priority.PriorityClassifier;
import shaper.retry.RetryPolicy;
import shaper.settings.ProviderConfig;

/**
 * One provider, whole: everything that serves its requests, built once from its config (by the
 * server's assembler) and never changed. The request handler, the upgrade tunnel, the metrics
 * view and the TUI all take this one value; nothing about a provider is kept anywhere else, and
 * nothing here is shared with another provider.
 *
 * @param config      the provider's validated settings (name, mount prefix, retry, breaker, …)
 * @param time        the one clock of its limiters, breaker, retries and journal
 * @param limiters    its route, default-pool, global and large-request limiters (for snapshots)
 * @param admission   its admission chain over those limiters and the breaker
 * @param breaker     its circuit breaker (transitions reported to its log)
 * @param retry       its retry policy (with the server's jitter)
 * @param upstreams   its upstream connection pools
 * @param auth        the provider's upstream credential policy (described at startup)
 * @param rewrite     the credential step of passthrough requests (client key out, provider auth in)
 * @param transcoding its transcoded routes (each with its own credential step); {@link TranscodeStages#NONE} when off
 * @param cluster     the shared-limit backend when its limiters are cluster-wide, else empty
 * @param publisher   where its finished exchanges go (journal, counters, metrics, log)
 * @param tokens      its token economics: usage, the upstream's stated rate limits, the budget when paced
 * @param priority    which priority class each request queues in; {@link PriorityClassifier#NONE} without classes
 */
public record ProviderAssembly(ProviderConfig config, TimeSource time, ProviderLimiters limiters, AdmissionChain admission,
                               CircuitBreaker breaker, RetryPolicy retry, Upstreams upstreams, UpstreamAuth auth, HeaderRewrite rewrite,
                               TranscodeStages transcoding, Optional<ClusterBackend> cluster, ExchangePublisher publisher,
                               ProviderTokens tokens, PriorityClassifier priority)
        implements AutoCloseable {
    public ProviderAssembly {
        // every part is required: a provider without one of them could not serve a request
        for (Object part : new Object[] {config, time, limiters, admission, breaker, retry, upstreams, auth, rewrite, transcoding, cluster,
                publisher, tokens, priority}) {
            Objects.requireNonNull(part, "a provider part");
        }
    }

    /** The provider's name ({@code default} for an unnamed single provider). */
    public String name() {
        return config.name();
    }

    /** Whether a request of {@code method} on {@code rawPath} is converted by one of its transcoded routes. */
    public boolean transcodes(String method, String rawPath) {
        return transcoding.match(method, rawPath) != null;
    }

    /** Closes what only this provider holds: its upstream pools, its cluster link and its {@code -log-file} mirror. */
    @Override
    public void close() {
        upstreams.close();
        cluster.ifPresent(ClusterBackend::close);
        if (config.gateway().logFile() != null) {
            publisher.log().close();
        }
    }
}
