/**
 * The request path: one carriage for every model call, whose stages each take the exchange and
 * return what they concluded.
 *
 * <pre>
 * intake ──▶ route ──▶ admission ──▶ attempts ──▶ relay
 * Intake     RouteStage AdmissionStage AttemptStage ResponseRelay, or TranscodeStage for a transcoded route
 * (Exchange) (Targets)  (budget, breaker, slots; (AttemptLoop, one Turn per attempt)
 *               ▲        a refusal is answered locally)
 *               └── moved: a fallback trigger while nothing of the answer is sent ── next Target
 * every path ──▶ Settlement: budget, unused breaker ticket, load sample, slots, the one record
 * </pre>
 *
 * <p>A provider's own mount has one target; the routed mount ({@link shaper.proxy.RoutedMount},
 * {@code -route-prefix}) lists its model route's targets, and a target that is not the last may be
 * left (its grants given back by the settlement first) for the next.
 *
 * <ul>
 *   <li>{@link shaper.proxy.Exchange}: what was asked (method, path, headers, the body's coding, priority
 *       class, client identity, cost estimate), immutable and independent of the listener's request type;
 *       {@link shaper.proxy.Carriage} adds where the answer goes and what is recorded.</li>
 *   <li>{@link shaper.proxy.ProxyHandler}: the HTTP entrance, which runs the stages in that order;
 *       {@link shaper.proxy.SocketTurn}: the WebSocket entrance, the same stages for one turn of a
 *       Responses WebSocket session (package {@code shaper.proxy.ws}), its sockets behind
 *       {@link shaper.proxy.TurnSocket}.</li>
 *   <li>{@link shaper.proxy.AnswerJudge}: the one pure decision on an attempt's answer (accept, retry,
 *       give up), with its breaker verdict and overload signal.</li>
 *   <li>{@link shaper.proxy.ClientSink}: the only owner of the answer's commit state; a local failure is
 *       an HTTP answer while nothing is committed, else one last event of the client's dialect.</li>
 *   <li>Around them: the wait between attempts ({@link shaper.proxy.BackoffStep}), bounded looks at
 *       answer bodies ({@link shaper.proxy.BodyPeek}), header hygiene ({@link shaper.proxy.HeaderPolicy}),
 *       upstream pools and raw URL joining ({@link shaper.proxy.Upstreams}), per-read flushing
 *       ({@link shaper.proxy.StreamCopy}), event-stream threads ({@link shaper.proxy.StreamThreads}); the
 *       watches of clients and calls (package {@code shaper.proxy.watch}), the upstream HTTP/1.1 client
 *       ({@code shaper.proxy.client}) and WebSocket tunnelling ({@code shaper.proxy.upgrade}).</li>
 * </ul>
 *
 * <p>Exchange outcome: clean only when the whole response reached the client; a failure on
 * either side after the response is committed aborts the client connection and the upstream
 * connection, and is counted as aborted. Before commit, an unreachable upstream becomes
 * {@code 502}. Circuit breaker: every attempt reports its own outcome; success only once the body
 * has reached the client; an attempt abandoned because the client left is cancelled, not counted.
 *
 * <p>Thread-safety: handlers and provider assemblies are shared and immutable; all per-request state
 * (the exchange's {@code ClientSink}, {@code Settlement}, attempt loop and result) is confined to the
 * request's thread, or to the one stream thread that relays an event stream while the request's
 * thread waits for it.
 */
package shaper.proxy;
