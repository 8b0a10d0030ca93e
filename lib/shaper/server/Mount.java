package shaper.server;

import shaper.admission.ProviderLimiters;
import shaper.config.ProviderConfig;
import shaper.observe.ExchangeCounters;
import shaper.proxy.HeaderRewrite;
import shaper.proxy.ProxyHandler;
import shaper.proxy.Upstream;

/**
 * One provider as the listener sees it: its config, limiters, upstream pool, counters, credential
 * rewrite and handler. Nothing here is shared with another provider.
 */
record Mount(ProviderConfig config, ProviderLimiters limiters, Upstream upstream, ExchangeCounters counters,
             HeaderRewrite rewrite, ProxyHandler handler) {
}
