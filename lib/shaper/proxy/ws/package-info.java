/**
 * Responses WebSocket sessions terminated in the proxy: the client's socket on Helidon's WebSocket
 * frames, one upstream socket per client socket on the JDK's client, and each generating
 * {@code response.create} handed to the request path as one exchange
 * ({@link shaper.proxy.SocketTurn}).
 *
 * <pre>
 * client ─upgrade─▶ ResponsesUpgrader ─ not the Responses path, or tunnel ─▶ UpgradeTunnel (opaque)
 *                        │ ─ refuse, or a transcoded route ─▶ 426 (HandshakeRecord)
 *                        ▼ shape
 *                   UpstreamLink.open ─refused─▶ its status; unreachable ─▶ 502
 *                        ▼ open
 *                   101 ─▶ SessionConnection (Helidon's frame loop) ─▶ ResponsesSession
 *                              generating response.create ─▶ turn thread: SocketTurn.serve
 *                              anything else ─▶ upstream at once
 *                              upstream event ─▶ client (and the turn in flight)
 * </pre>
 *
 * <p>Session state: open until either socket closes or a message breaks the protocol; then both
 * sockets close and the open-session gauge ({@link shaper.proxy.ws.SessionGauge}) counts down, once.
 * A turn: waiting (admission, the frame held, pings answered) ─▶ relaying (the slot held) ─▶ ended by
 * {@code response.completed} (success), {@code response.failed} / {@code response.incomplete}
 * (answered, neutral), an upstream {@code error} event (its status; 429 and 5xx are breaker failures),
 * the upstream's close (aborted, a failure), the client's close (aborted, cancelled) or
 * {@code -upstream-timeout} (aborted). Refusals are {@code error} events, then close 1013.
 *
 * <p>Thread-safety: the upgrader is shared; a session is met by three threads (Helidon's frame loop,
 * the JDK client's listener, the turn's virtual thread) only through volatile fields, atomics and
 * the turn's latch, and sends to the client under Helidon's send lock.
 */
package shaper.proxy.ws;
