/**
 * Admission: a provider's policies as one {@link shaper.admission.AdmissionChain} of
 * {@link shaper.admission.AdmissionLink}s, each with one contract: admit → a hold, or a typed
 * {@link shaper.admission.Refusal}. Which limiters a request passes is
 * {@link shaper.admission.ProviderLimiters#classify}; slots are given back by
 * {@link shaper.admission.Slots}.
 *
 * <pre>
 * classify ─▶ circuit breaker ─▶ [route or default pool] ─▶ [global] ─▶ [large-request gate] ─▶ forward ─▶ dispose
 *               open: refuse         FIFO, -queue-depth        FIFO          FIFO                        hold rules,
 *                              ◀──────────── one -queue-timeout budget ───────────▶                    then release
 * </pre>
 *
 * <p>Guarantees: each limiter admits in strict FIFO order within a priority class, weighted fair across
 * classes (see {@code shaper.limit}); a request
 * that finds its slots free never waits and never counts as queued; a request that waits has its
 * body read first and its client connection watched ({@link shaper.admission.DisconnectWatcher}),
 * so a client that leaves is removed from the queue without ever reaching the upstream; every hold
 * is given back on every path (a refusal gives back what earlier links granted,
 * {@link shaper.admission.Slots#dispose} runs in the request's {@code finally}).
 *
 * <p>Thread-safety: the chain, its links, the limiters and the watcher are shared and
 * thread-safe; an {@link shaper.admission.AdmissionRequest} and a {@link shaper.admission.Slots}
 * belong to one request thread.
 */
package shaper.admission;
