/**
 * Prometheus export ({@code -metrics-bind}): {@link shaper.metrics.Series} names every family,
 * {@link shaper.metrics.ShaperMetrics} builds them on the Prometheus Java client from snapshots
 * and exchange records, {@link shaper.metrics.MetricsListener} serves them on a listener of their
 * own, never on the proxy port.
 *
 * <p>Counting: counters read {@link shaper.observe.ExchangeCounters} (fed once per exchange record);
 * gauges read limiter, breaker and journal snapshots at scrape time; histograms observe each
 * record. The breaker state family is omitted for a provider whose breaker is off; the per-route
 * queue families have series only while a route has waiters, and none for a label value that is
 * not valid UTF-8. Thread-safe.
 */
package shaper.metrics;
