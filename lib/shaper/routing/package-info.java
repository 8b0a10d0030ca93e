/**
 * Routing by model on one mount: which providers may serve a request that names a model, in what
 * order, and which session sticks to which of them.
 *
 * <ul>
 *   <li>{@link shaper.routing.ModelRoute}: one {@code -model-route 'PATTERN=TARGET[,TARGET...]'}, a glob on
 *       the request's {@code model} and the targets tried in order, each {@code PROVIDER[:UPSTREAM_MODEL]}.</li>
 *   <li>{@link shaper.routing.RoutingConfig}: the routed mount ({@code -route-prefix}), its routes and the
 *       fallback and affinity settings; immutable, validated once.</li>
 *   <li>{@link shaper.routing.FallbackWhy}: the closed set of reasons a request moves to its next target.</li>
 *   <li>{@link shaper.routing.Affinity}: a bounded, expiring table of session to target, so a session's
 *       upstream prompt cache stays warm.</li>
 * </ul>
 *
 * <p>A target is a whole provider: distinct accounts are distinct providers with their own queues
 * and breakers, and a request never rotates keys within one provider.
 *
 * <p>Thread-safety: everything here is immutable except {@link shaper.routing.Affinity}, which is
 * shared by every request of the routed mount and guards its table with one lock.
 */
package shaper.routing;
