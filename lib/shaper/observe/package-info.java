/**
 * What the proxy tells its operator, all read from one immutable {@link shaper.observe.ExchangeRecord}
 * per exchange.
 *
 * <pre>
 * handler ─ Journal.begin ─▶ ExchangeTrace (live stamps; Journal.inFlight() views it)
 *         ─ finally: trace.finish(...) ─▶ ExchangeRecord ─▶ ExchangePublisher.publish:
 *                                           1. Journal ring (recent(), newest first)
 *                                           2. ExchangeCounters, then the metrics' histograms
 *                                           3. ExchangeLog line
 * </pre>
 *
 * <p>Outcome rules: {@link shaper.observe.Outcome#CLEAN} only when the response reached the client
 * completely; {@link shaper.observe.Outcome#ABORTED} when it did not (client left, a write failed,
 * the upstream body broke off), even after a committed 200, which still counts in its status
 * bucket; {@link shaper.observe.Outcome#FAILED} for the proxy's own error answers. Queue timeouts,
 * queue rejections, circuit rejections and cancels are never clean. {@link shaper.observe.EndReason}
 * says which exit path ended an exchange and {@link shaper.observe.Provenance} which side failed.
 *
 * <p>Logs and counters never carry secrets or query strings; the journal keeps raw headers and
 * bounded body previews for the local operator's TUI only, as the spec allows. Everything here
 * is thread-safe.
 */
package shaper.observe;
