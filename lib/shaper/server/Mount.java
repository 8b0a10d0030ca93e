package shaper.server;

import shaper.admission.ProviderLimiters;
import shaper.config.ProviderConfig;
import shaper.observe.ExchangeCounters;
import shaper.proxy.ProxyHandler;
import shaper.proxy.Upstreams;
import shaper.breaker.CircuitBreaker;

/** One provider as the listener sees it: its config, limiters, upstream pool, counters and handler. */
record Mount(ProviderConfig config, ProviderLimiters limiters, Upstreams upstreams, CircuitBreaker breaker, ExchangeCounters counters,
             ProxyHandler handler) {
}
