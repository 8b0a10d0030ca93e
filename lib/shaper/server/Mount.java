package shaper.server;

import shaper.admission.ProviderLimiters;
import shaper.breaker.CircuitBreaker;
import shaper.config.ProviderConfig;
import shaper.observe.ExchangePublisher;
import shaper.proxy.HeaderRewrite;
import shaper.proxy.ProxyHandler;
import shaper.proxy.Upstreams;

/**
 * One provider as the listener sees it: its config, limiters, upstream pools, breaker, exchange
 * publisher (journal, counters, log), credential rewrite and handler. Nothing here is shared with another provider.
 */
record Mount(ProviderConfig config, ProviderLimiters limiters, Upstreams upstreams, CircuitBreaker breaker, ExchangePublisher publisher,
             HeaderRewrite rewrite, ProxyHandler handler) {
}
