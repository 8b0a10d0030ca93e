/**
 * Cluster mode: one provider's limiters shared by several shaper instances through Redis
 * ({@code -limiter-backend}: {@code redis://}, {@code rediss://}, {@code redis-sentinel://},
 * {@code redis-cluster://}, parsed into a {@link shaper.cluster.RedisEndpoint}). Each limiter
 * (route, group, default pool, global, large-request gate) becomes a
 * {@link shaper.cluster.ClusterLimiter}: a lease semaphore whose permits are unique ids with an
 * expiry in a Redis sorted set, and whose waiters hold cluster-wide arrival tickets. All state
 * changes run as server-side scripts ({@link shaper.cluster.LeaseScripts}) on the server's clock,
 * called through {@link shaper.cluster.LeaseCalls} with typed replies; every key of one limiter
 * carries one hash tag, so on Redis Cluster each script touches one slot.
 *
 * <p>Parts: {@link shaper.cluster.RedisLink} (up/down, the grant subscription) over a
 * {@link shaper.cluster.RedisConnector} (what differs per kind), {@link shaper.cluster.RedisAuth}
 * and {@link shaper.cluster.RedisTls} (credentials and certificates, read once at startup),
 * {@link shaper.cluster.LocalFallback} (admission while Redis is away),
 * {@link shaper.cluster.LeaseRenewal} (the periodic round) and {@link shaper.cluster.GrantPump}
 * (grants of slots that return by time). A provider's token budget ({@code -rpm} and the rest) is
 * shared too: {@link shaper.cluster.RedisTokenBuckets} keeps its buckets in Redis through
 * {@link shaper.cluster.BucketScripts}, under the same link and fallback rules.
 *
 * <pre>
 *  instance A                    Redis (namespace:key)                    instance B
 *  enqueue ──ENQUEUE──▶  free &amp;&amp; queue empty? → permit id in :p (expiry)
 *                        else ticket id in :q at INCR :seq  ◀──ENQUEUE── enqueue
 *  release ──RELEASE──▶  :p → :c (cooldown) → pump: head of :q → :p ──PUBLISH──▶ waiter wakes
 *  every lease/3 ─RENEW─▶ extend own permits and tickets; report missed grants, lost entries
 *  crash ───────────────▶ nobody renews: permits and tickets expire after the lease
 * </pre>
 *
 * <h2>Guarantees</h2>
 * <ul>
 * <li><b>Bound.</b> While Redis is reachable, at most {@code limit} permits of a key exist in
 *     Redis at once, holds and cooldowns included (a hold is the permit's expiry, kept in Redis).
 *     Exceptions, stated in the README: after a fallback or a Redis restart, running exchanges
 *     are re-registered even past the limit, and new grants wait until the total is back under it.</li>
 * <li><b>Order.</b> Slots go to tickets in cluster-wide arrival order ({@code INCR}); with priority
 *     classes, in the weighted fair order of {@link shaper.cluster.ClassQueueLua} (by class weight,
 *     then arrival within a class), across every instance's tickets. A new arrival never takes a
 *     free slot while anyone waits, on any instance. A full queue refuses the newest ticket of the
 *     lightest class lighter than the arrival, on whichever instance it waits, or else the arrival.</li>
 * <li><b>Adaptive.</b> With {@code -adaptive-concurrency} the learnt limit is one value in Redis
 *     ({@link shaper.cluster.SharedLimitLua}), moved by any instance's samples and read by every
 *     script, so every instance admits by it.</li>
 * <li><b>Wake-ups are pushed</b> on the owning instance's channel; a missed push is found by the
 *     next renewal, a slot freed by an expiry by a timer at the expiry Redis reported. Nothing polls.</li>
 * <li><b>Release</b> on every exit path is the {@link shaper.limit.Permit} contract; a ticket that
 *     is cancelled or times out leaves the Redis queue, and one granted meanwhile gives its slot back
 *     unused. A crashed instance's slots return within one lease.</li>
 * <li><b>Fallback.</b> Any failed or slow call (over the call timeout) marks the
 *     {@link shaper.cluster.RedisLink} down; {@code local} then admits through an in-process
 *     limiter of the same size in which the permits Redis granted before the outage take their
 *     slots first (so the cluster runs at most instances × limit, the switch included),
 *     {@code closed} answers 503. Transitions are logged once each and counted; recovery is
 *     automatic. A failover (Sentinel, or a cluster node's) may lose permits written just before
 *     it: each instance registers its own again within one renewal period.</li>
 * </ul>
 * Thread-safe throughout; a waiting virtual thread parks on its ticket's condition.
 */
package shaper.cluster;
