package shaper.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import shaper.limit.QueueClass;
import shaper.limit.QueuePlace;

/**
 * The Redis side of one limiter: its keys, the arguments every script shares, and one typed call
 * per {@link LeaseScripts} script. Every call throws {@link RedisUnavailable} when the link is down
 * or the call failed (the link then goes down).
 *
 * <p>All keys of one limiter share one hash tag, {@code {NAMESPACE:LIMITER}}, so on Redis Cluster
 * every script touches a single slot (a script may only touch keys of one slot there), and a slot
 * migration moves a limiter's keys together. Thread-safe (immutable).
 */
final class LeaseCalls {
    private final RedisLink link;
    private final String baseKey;
    private final List<String> keys;
    private final List<String> common;

    /** @param adaptiveMin {@code -concurrency-min} of a shared adaptive limit, whose ceiling is {@code limit}; 0 = a fixed limit */
    LeaseCalls(RedisLink link, String namespace, String key, int limit, Duration releaseCooldown, Duration lease,
               boolean headroom, int adaptiveMin) {
        this.link = link;
        this.baseKey = baseKey(namespace, key);
        this.keys = List.of(baseKey + ":p", baseKey + ":c", baseKey + ":q", baseKey + ":ql", baseKey + ":qa",
                baseKey + ":seq", baseKey + ":h", baseKey + ":qt", baseKey + ":qw", baseKey + ":qp", baseKey + ":qr",
                baseKey + ":l", baseKey + ":pe", baseKey + ":qf");
        this.common = List.of(Integer.toString(limit), Long.toString(releaseCooldown.toMillis()), Long.toString(lease.toMillis()),
                link.channelPrefix(), headroom ? "1" : "0", Integer.toString(adaptiveMin));
    }

    /**
     * {@code {NAMESPACE:LIMITER}}: the first {@code {} opens the tag, so whatever the names contain,
     * every key of the limiter hashes to the same slot.
     */
    static String baseKey(String namespace, String key) {
        return "{" + namespace + ":" + key + "}";
    }

    /** The prefix of this limiter's keys, and the first word of its grant messages. */
    String baseKey() {
        return baseKey;
    }

    /**
     * Takes a free slot under {@code id}, or queues it at {@code place} (its class, its client's turns)
     * unless {@code depth} waiters are there (0 = unbounded) and none of them is of a lighter class.
     */
    EnqueueReply enqueue(String id, int depth, QueuePlace place) {
        QueueClass cls = place.cls();
        return EnqueueReply.decode(eval(LeaseScripts.ENQUEUE, id, Integer.toString(depth), "queue", cls.name(),
                Integer.toString(cls.weight()), place.client().name(), Integer.toString(place.client().weight())));
    }

    /** Takes a free slot under {@code id} if nobody waits; never queues. */
    boolean tryTake(String id) {
        QueueClass c = QueueClass.DEFAULT;
        return EnqueueReply.decode(eval(LeaseScripts.ENQUEUE, id, "0", "try", c.name(), Integer.toString(c.weight())))
                instanceof EnqueueReply.Granted;
    }

    /**
     * Ends a permit: held until now + {@code hold}, then cooling; an {@code unused} one returns at
     * once. The call runs on its own virtual thread, so a release never blocks (the
     * {@link shaper.limit.Permit} contract): the request thread, which may serve the connection's
     * next request, does not wait for the round trip. If it fails, the permit's lease runs out.
     */
    void releaseInBackground(String id, Duration hold, boolean unused) {
        releaseInBackground(id, hold, unused, SharedSample.NONE, moved -> { });
    }

    /**
     * As above, with the exchange's {@code sample} for a shared adaptive limit; {@code onMove} is told
     * (on the release's thread) when it moved the limit.
     */
    void releaseInBackground(String id, Duration hold, boolean unused, SharedSample sample, Consumer<LimitMove> onMove) {
        Thread.ofVirtual().name("shaper-cluster-release").start(() -> {
            try {
                Object reply = eval(LeaseScripts.RELEASE, id, Long.toString(hold.toMillis()), unused ? "1" : "0",
                        sample.kind(), sample.cause());
                if (reply instanceof List<?> moved && moved.size() == 3) {
                    onMove.accept(new LimitMove(Math.toIntExact(number(moved.get(0))), Math.toIntExact(number(moved.get(1))),
                            strings(List.of(moved.get(2))).getFirst()));
                }
            } catch (RedisUnavailable e) {
                // its lease runs out in Redis
            }
        });
    }

    /** The shared limit moved: from, to, and why. */
    record LimitMove(int from, int to, String reason) {
    }

    /**
     * Leaves the queue; a grant that won the race goes back unused (to the next waiter). If it
     * fails, the ticket's lease runs out: nobody renews it any more.
     */
    void leave(String ticketId) {
        try {
            eval(LeaseScripts.LEAVE, ticketId);
        } catch (RedisUnavailable e) {
            // expires in Redis
        }
    }

    /** Extends these permits and queued tickets; reports missed grants and what Redis lost. */
    RenewalReply renew(List<String> permitIds, List<String> ticketIds) {
        return RenewalReply.decode(eval(LeaseScripts.RENEW, idLists(permitIds, ticketIds)));
    }

    /**
     * Registers lost permits again (even past the limit) and queues lost tickets at the tail of
     * their classes, in the given order. Returns the next event in ms.
     */
    long reassert(List<String> permitIds, List<ClusterTicket> tickets) {
        List<String> ids = new ArrayList<>(1 + permitIds.size() + 5 * tickets.size());
        ids.add(Integer.toString(permitIds.size()));
        ids.addAll(permitIds);
        for (ClusterTicket t : tickets) {
            ids.add(t.id());
            ids.add(t.place().cls().name());
            ids.add(Integer.toString(t.place().cls().weight()));
            ids.add(t.place().client().name());
            ids.add(Integer.toString(t.place().client().weight()));
        }
        return number(eval(LeaseScripts.REASSERT, ids.toArray(String[]::new)));
    }

    /** Withholds one slot for {@code window}. Returns the next event in ms. */
    long headroom(Duration window) {
        return number(eval(LeaseScripts.HEADROOM, Long.toString(window.toMillis())));
    }

    /** Grants due slots. Returns the next event in ms. */
    long pump() {
        return number(eval(LeaseScripts.PUMP));
    }

    LeaseState state() {
        return LeaseState.decode(eval(LeaseScripts.STATE));
    }

    private Object eval(String script, String... extra) {
        List<String> args = new ArrayList<>(common.size() + extra.length);
        args.addAll(common);
        args.addAll(List.of(extra));
        return link.eval(script, keys, args);
    }

    /** The scripts' id-list convention: the number of permit ids, the permit ids, then the ticket ids. */
    private static String[] idLists(List<String> permitIds, List<String> ticketIds) {
        List<String> ids = new ArrayList<>(1 + permitIds.size() + ticketIds.size());
        ids.add(Integer.toString(permitIds.size()));
        ids.addAll(permitIds);
        ids.addAll(ticketIds);
        return ids.toArray(String[]::new);
    }

    /** A Lua number as Redis returns it (an integer reply). */
    static long number(Object reply) {
        if (reply instanceof Long l) {
            return l;
        }
        throw new IllegalStateException("lease script answered " + reply + " where an integer was expected");
    }

    /** A Lua table of strings. */
    static List<String> strings(Object reply) {
        if (!(reply instanceof List<?> list)) {
            throw new IllegalStateException("lease script answered " + reply + " where a list was expected");
        }
        List<String> out = new ArrayList<>(list.size());
        for (Object o : list) {
            out.add(o instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8) : (String) o);
        }
        return out;
    }
}
