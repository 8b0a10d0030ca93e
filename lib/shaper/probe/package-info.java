/**
 * The fixture upstream ({@code ProbeServer.java}): a scripted server that fails the way LLM
 * upstreams fail, so the shaper's retry, SSE inspection, limiter and breaker can be shown and tested.
 *
 * <p>Routing: {@code /__probe/reset} and {@code /__probe/stats} are the probe's own routes; any
 * other path belongs to the {@link shaper.probe.Fixture} whose prefix is the path or a parent of
 * it, else 404. A fixture's success answer is the Anthropic API's answer for the rest of the path
 * (a Messages reply, SSE when the body has {@code "stream": true}). {@code HEAD} on any fixture
 * path is a reachability check: 200, no body, not counted.
 *
 * <p>State: one hit counter per full request path. The flaky fixtures fail hit 1..N of a path and
 * succeed from hit N+1 on (N from {@code ?fails=}, else {@code -failures}), so
 * {@code /flaky422/x} and {@code /flaky422/y} fail independently; {@code POST /__probe/reset}
 * starts every path over. Per fixture the server also tracks requests in flight and their peak.
 * There is no other state: "always" fixtures answer the same way on every hit.
 *
 * <p>Time: every wait goes through an injected {@link shaper.probe.Sleeper}; tests record waits
 * instead of sleeping. Thread-safety: handlers run on virtual threads and share only
 * {@link shaper.probe.ProbeStats}, which is lock-free.
 */
package shaper.probe;
