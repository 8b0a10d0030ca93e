/**
 * The transparent streaming passthrough: header hygiene ({@link shaper.proxy.HeaderPolicy}),
 * URL joining ({@link shaper.proxy.UpstreamUris}), body streaming with per-read flushing
 * ({@link shaper.proxy.StreamCopy}), the upstream connection pool ({@link shaper.proxy.Upstream})
 * and WebSocket upgrade tunnelling ({@link shaper.proxy.UpgradeTunnel}).
 *
 * <p>Exchange outcome: clean only when the whole response reached the client; a failure on
 * either side after the response is committed aborts the client connection and the upstream
 * connection, and is counted as aborted. Before commit, an upstream failure becomes {@code 502}.
 */
package shaper.proxy;
