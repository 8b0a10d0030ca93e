/**
 * The per-provider circuit breaker ({@code -circuit-breaker}, {@code -cb-*}): a pure state
 * machine with no HTTP in it. The proxy asks {@link shaper.breaker.CircuitBreaker#allow()}
 * before queueing and reports each admitted request's result once.
 *
 * <h2>State machine</h2>
 * <pre>
 *             threshold failures within window
 *   CLOSED ─────────────────────────────────────▶ OPEN ◀──────────┐
 *     ▲                                            │               │ probe failure
 *     │ probe success                              │ allow() after │ (backoff + 1)
 *     │ (reset window, backoff,                    │ openTimeout × │
 *     │  consecutive, Retry-After)                 ▼ 2^backoff     │
 *     └──────────────────────────────────────── HALF_OPEN ─────────┘
 *                                                 │   ▲
 *                      probe neutral / cancelled  └───┘  (probe freed, state kept)
 * </pre>
 * <ul>
 *   <li><b>CLOSED</b> admits everything. Each failure is stamped into a sliding window (stamps
 *       {@code window} old or older drop out); when the window holds {@code threshold} stamps the
 *       breaker opens.</li>
 *   <li><b>OPEN</b> rejects everything. There is no timer: the first {@code allow()} after
 *       {@code openTimeout × 2^backoff} (capped at {@code maxOpenTimeout}, overflow-safe) turns the
 *       breaker HALF_OPEN and becomes its probe.</li>
 *   <li><b>HALF_OPEN</b> admits exactly one probe and rejects the rest. A probe outstanding longer
 *       than {@code openTimeout} (the base value, not the backed-off one) is presumed lost and
 *       another probe is admitted in its place.</li>
 * </ul>
 *
 * <p><b>Epochs.</b> Every admission carries the epoch it was admitted in. The epoch changes on
 * every transition and on every probe issued, and a result whose epoch is not the current one
 * changes nothing. So a slow request admitted while CLOSED can neither close a HALF_OPEN circuit
 * nor count against a circuit that has since recovered (this covers "results of attempts that
 * started before the breaker opened"), and a replaced probe's late answer is ignored.
 *
 * <h2>Input contract</h2>
 * Outcomes arrive classified; nothing here looks at statuses or headers.
 * <ul>
 *   <li>{@code recordFailure}: a transport error, 5xx, 429, or a 403 with rate-limit signals
 *       (a future Retry-After or {@code x-ratelimit-*} / {@code ratelimit-*} headers), and a 2xx
 *       whose body breaks the wire contract. Pass the upstream Retry-After, or zero.</li>
 *   <li>{@code recordSuccess}: a 2xx whose body was copied to the client completely; a
 *       client-aborted 200 is not a success.</li>
 *   <li>{@code recordNeutral}: an upstream answer that says nothing about upstream health, such as
 *       a bare 403 (a bad key must not be masked by {@code 503 circuit open}) or another 4xx. In
 *       CLOSED it changes nothing, not even the consecutive count. A neutral probe neither closes
 *       nor reopens the circuit: it frees the probe, and the next request probes again. Closing on
 *       a 4xx could close a circuit in front of a still-broken upstream; reopening would keep the
 *       circuit open forever for a client that only sends bad requests.</li>
 *   <li>{@code cancel}: the request ended without an upstream verdict (queue timeout, client
 *       cancel, queue-depth 429, a local failure). Same effect as neutral.</li>
 * </ul>
 * Each admission is reported exactly once; reporting a {@code Rejected} admission is a no-op.
 *
 * <h2>Phantom penalty</h2>
 * After an upstream failure the proxy holds the slot for
 * {@code min(max(penalty × 2^(consecutive − 1), lastRetryAfter), maxPenalty)}, where
 * {@code consecutive} counts failures since the last success (saturating) and
 * {@code lastRetryAfter} is the last positive Retry-After reported since then. The growth is
 * exponential, as the README states, so the hold backs off quickly from an upstream that keeps
 * failing; the doubling saturates instead of overflowing. A success resets both.
 * A disabled breaker's penalty is zero, so the caller uses {@code -failure-hold} instead.
 *
 * <h2>Transitions</h2>
 * Each state change is told once to the listeners given at construction (the log line), from the
 * thread whose call made it, and recorded in a short numbered history published with the state
 * ({@link shaper.breaker.CircuitBreaker#transitionsSince}). A reader that only looks now and then,
 * such as the TUI once a frame, reads the history instead of comparing states, so a circuit that
 * opened, probed and closed between two of its looks still shows all three changes.
 *
 * <h2>Thread-safety</h2>
 * A breaker is shared by all request threads of its provider. Its whole memory is one immutable
 * value in an {@link java.util.concurrent.atomic.AtomicReference}; each call computes the next
 * value with a pure transition and publishes it by compare-and-set, retrying on contention, so
 * no call blocks and every snapshot is consistent. Time comes from the injected
 * {@code LongSupplier} ticker ({@code System::nanoTime} in production).
 */
package shaper.breaker;
