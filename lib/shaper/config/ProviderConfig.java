package shaper.config;

import java.net.URI;
import java.util.Objects;

import shaper.admission.AdmissionConfig;
import shaper.breaker.BreakerConfig;
import shaper.retry.RetryConfig;

/**
 * Provider-scope settings: one upstream and how it is reached.
 *
 * @param name     display name for logs (derived from the upstream host when not given)
 * @param upstream validated http(s) base URL; its path is joined before the request path
 * @param prefix   mount path stripped before forwarding; empty for the bare root
 * @param admission concurrency limits, queue semantics and slot holds
 * @param retry     the retry transport
 * @param breaker   the circuit breaker
 * @param gateway   the Responses upstream, the large-request gate and the mirror log
 */
public record ProviderConfig(String name, URI upstream, String prefix, AdmissionConfig admission, RetryConfig retry,
                             BreakerConfig breaker, GatewayConfig gateway) {
    public ProviderConfig {
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(breaker, "breaker");
        Objects.requireNonNull(gateway, "gateway");
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(prefix, "prefix");
    }
}
