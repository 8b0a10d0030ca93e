/**
 * WebSocket (and other {@code 101 Switching Protocols}) upgrades, tunnelled to the provider's
 * upstream. {@link shaper.proxy.upgrade.UpgradeTunnel} is the only public type: Helidon hands it
 * the handshake, and it holds the policy (breaker asked and told, what is forwarded, when the
 * client gets a local {@code 502} or {@code 503}). Around it, each on its own: the upstream socket
 * client, plain or TLS ({@code UpstreamSocket}); the pure parser of the answer's HTTP/1.1 head
 * ({@code ResponseHead}); the check that a {@code 101} switched to a protocol the client offered
 * ({@code UpgradeProtocols}); the exchange record ({@code HandshakeExchange}); and the byte splice
 * after the head ({@code TunnelSplice}).
 *
 * <pre>
 * client ─handshake─▶ UpgradeTunnel ─breaker.allow─▶ UpstreamSocket ─head─▶ ResponseHead
 *                                                                              │
 *        ◀── 502 (unreachable, not HTTP, protocol not offered) ◀──────────────┤
 *        ◀── head ── 101 ─▶ TunnelSplice.tunnel (both ways, untimed) ◀─────────┤
 *        ◀── head ── other ─▶ TunnelSplice.refusedBody (bounded, then close) ◀─┘
 * </pre>
 *
 * <p>Exchange outcome: one record per handshake, never per tunnel byte: {@code upgraded} on a
 * relayed {@code 101}; a refused upgrade is clean once its whole body reached the client, else
 * aborted; every local answer is failed. Breaker: a relayed {@code 101} is a success; a transport
 * failure, a non-HTTP answer, a {@code 101} naming a protocol the client did not offer, a cut
 * refusal body or an upstream-failure status is a failure; a client that leaves before the head
 * reached it cancels its admission. Thread-safety: the upgrader is shared; everything else belongs
 * to one connection (a tunnel adds one virtual thread for client-to-upstream bytes).
 */
package shaper.proxy.upgrade;
