/**
 * The request path of one provider, all of whose parts are one immutable
 * {@link shaper.proxy.ProviderAssembly}: {@link shaper.proxy.ProxyHandler} passes the request
 * through the provider's admission chain (circuit breaker, limiters) and hands it to {@link shaper.proxy.Forwarder}, which sends attempts
 * ({@link shaper.proxy.UpstreamCall}), decides retries from statuses, bounded body prefixes and early
 * SSE frames ({@link shaper.proxy.BodyPeek}), waits out backoff with keepalives
 * ({@link shaper.proxy.BackoffWait}, {@link shaper.proxy.EarlyStream}) and relays the accepted answer
 * ({@link shaper.proxy.ResponseRelay}). A transcoded route ({@link shaper.proxy.TranscodeStages}) adds one stage to this
 * same path: {@link shaper.proxy.TranscodeStage} converts the body before the first attempt and the accepted answer
 * instead of relaying it, so admission, limits, retries, the breaker and the log are the passthrough's. A request that waits has its connection watched for end of
 * stream by one shared selector thread ({@link shaper.proxy.ClientConnection},
 * {@link shaper.proxy.SelectorWatch}). Around it: header hygiene ({@link shaper.proxy.HeaderPolicy}),
 * raw URL joining ({@link shaper.proxy.UpstreamUris}), per-read flushing
 * ({@link shaper.proxy.StreamCopy}), the per-call bound and the watch for a client that leaves
 * while the upstream works ({@link shaper.proxy.CallWatch}), the reach into Helidon internals
 * ({@link shaper.proxy.HelidonInternals}), upstream pools ({@link shaper.proxy.Upstream},
 * {@link shaper.proxy.Upstreams}) and WebSocket tunnelling (package {@code shaper.proxy.upgrade}).
 *
 * <p>Exchange outcome: clean only when the whole response reached the client; a failure on
 * either side after the response is committed aborts the client connection and the upstream
 * connection, and is counted as aborted. Before commit, an unreachable upstream becomes
 * {@code 502}. Circuit breaker: every attempt reports its own outcome; success only once the body
 * has reached the client; an attempt abandoned because the client left is cancelled, not counted.
 *
 * <p>Thread-safety: handlers are shared; all per-request state lives in {@code Exchange} and the
 * forwarder's per-request attempt loop, confined to the request's thread.
 */
package shaper.proxy;
