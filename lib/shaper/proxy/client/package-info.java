/**
 * The proxy's own HTTP/1.1 client for upstream calls: a pooled plain or TLS connection, the request
 * written exactly as the proxy built it, and the answer's head parsed and its body framed
 * (length, chunked or until close) as a stream.
 *
 * <p>An answer is believed only when it follows the grammar ({@link shaper.proxy.client.WireSyntax}:
 * token names, no control characters, no folded lines, a status in 100-599, a single {@code chunked},
 * well-formed chunk frames, at most 256 field lines); anything else fails the call as an upstream
 * failure and closes the connection. A pooled connection is reused only while it idled less than
 * {@code -upstream-idle-timeout} and the upstream's announced {@code Keep-Alive: timeout}; a request
 * a reused connection swallowed is sent again only when that is harmless (idempotent or keyed, body
 * in memory). Connections may go through a forward proxy ({@link shaper.proxy.client.EgressProxy}, with
 * Basic or RFC 1929 credentials), and TLS runs with the JDK's default context or the trust and client
 * key of the provider's PEM files ({@link shaper.proxy.client.UpstreamTls}); both are held in
 * {@link shaper.proxy.client.Dialing}, which a reload compares to decide whether the pools stay.
 * The rules are written out in {@code docs/upstream-wire.md}.
 *
 * <p>Why not Helidon's {@code Http1Client}: measured against a raw socket relay on the same Helidon
 * server, it cost about 40 % of the proxy's throughput at 16 connections (its service chain, futures
 * and per-read buffers, and an idle-watch virtual thread started for every pooled connection, which
 * takes the first byte of each answer and hands it over). Here a pooled connection is checked with one
 * non-blocking read when it is taken, and nothing runs while it idles.
 */
package shaper.proxy.client;
