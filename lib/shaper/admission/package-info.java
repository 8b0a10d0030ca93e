/**
 * Admission: which limiters a request passes ({@link shaper.admission.ProviderLimiters}), waiting
 * for their slots ({@link shaper.admission.Admitter}) and giving them back
 * ({@link shaper.admission.Slots}).
 *
 * <pre>
 * classify ─▶ [route or default pool] ─▶ [global] ─▶ [large-request gate] ─▶ forward ─▶ dispose
 *                 FIFO, -queue-depth         FIFO          FIFO                     hold rules,
 *             ◀──────────── one -queue-timeout budget ───────────▶                  then release
 * </pre>
 *
 * <p>Guarantees: each limiter admits in strict FIFO order (see {@code shaper.limit}); a request
 * that finds its slots free never waits and never counts as queued; a request that waits has its
 * body read first and its client connection watched ({@link shaper.admission.DisconnectWatcher}),
 * so a client that leaves is removed from the queue without ever reaching the upstream; every
 * permit taken is released on every path (admission failure releases what was taken so far,
 * {@link shaper.admission.Slots#dispose} runs in the request's {@code finally}).
 *
 * <p>Thread-safety: the limiters and the watcher are shared and thread-safe; an
 * {@link shaper.admission.Slots} belongs to one request thread.
 */
package shaper.admission;
