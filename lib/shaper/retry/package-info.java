/**
 * Retry and failure policy as pure functions: no sockets, no sleeping, time passed in, randomness
 * injected. The proxy wires these into its upstream loop.
 *
 * <pre>
 *   attempt n ──► response / transport error
 *        │
 *        ├─► UpstreamFailures.classify ──► FailureClass   (breaker, failure hold, metrics)
 *        │
 *        └─► RetryPolicy.decide(ctx n, …) ──► Retry(reason, wait) ──► wait, replay as attempt n+1
 *                                        └──► GiveUp(reason)      ──► last response is final
 * </pre>
 *
 * <p><b>Breaker failures</b> ({@link shaper.retry.FailureClass}): status 0, 429, 500–599, and a 403 only
 * with a live {@code Retry-After} or an {@code x-ratelimit-*}/{@code ratelimit-*} header. A bare 403 and
 * other 4xx are neutral client errors; 2xx is success.
 *
 * <p><b>Retries</b> ({@link shaper.retry.RetryPolicy}): transport errors and 5xx; 429 unless
 * {@code -retry-skip-429}; statuses in {@code -retry-status} only when the body carries recognized
 * rate-limit/transient wording ({@link shaper.retry.ErrorWording}); never a body marking an invalid
 * request; a recognized 400 resource mismatch once, with reasoning carriers stripped
 * ({@link shaper.retry.StaleReasoning}); an error hidden under HTTP 200 when the SSE inspector found one.
 * Error text is turned into an {@link shaper.retry.ErrorSignal} in exactly one place.
 *
 * <p><b>Waits</b> ({@link shaper.retry.Backoff}): exponential from {@code -retry-wait-min}, capped at
 * {@code -retry-wait-max}, ±25% jitter; a longer {@code Retry-After} ({@link shaper.retry.RetryAfter})
 * replaces it; {@code -retry-min-delay} is a floor; a wait that would reach {@code -retry-deadline} ends
 * the retries.
 *
 * <p>Every type here is immutable or stateless and safe to share between requests, provided the injected
 * {@code RandomGenerator} is safe for concurrent use.
 */
package shaper.retry;
