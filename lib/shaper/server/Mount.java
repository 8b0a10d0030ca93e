package shaper.server;

import shaper.config.ProviderConfig;
import shaper.observe.ExchangeCounters;
import shaper.proxy.ProxyHandler;
import shaper.proxy.Upstream;

/** One provider as the listener sees it: its config, its upstream pool, its counters and its handler. */
record Mount(ProviderConfig config, Upstream upstream, ExchangeCounters counters, ProxyHandler handler) {
}
