package shaper.cluster;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * One process's connection to the Redis behind a provider's cluster limiters: a pool for the lease
 * scripts, one subscriber connection on this instance's grant channel, and the up/down state. The
 * kind of endpoint (one server, TLS, Sentinel, Cluster) is the {@link RedisConnector}'s business.
 *
 * <pre>
 *   DOWN ──connected, subscribed to the grant channel──▶ UP ──any call fails or times out──▶ DOWN
 *     ▲  (supervisor retries every {@link #RETRY})              │  (subscriber connection drops)
 *     └──────────────────────────────────────────────────────────┘
 * </pre>
 * Each transition is logged once and counted; listeners (the limiters) hear it on a fresh virtual
 * thread, so a request thread that noticed the failure is not held up by the fallback work. While
 * DOWN every call fails at once without touching the network. The link starts DOWN and goes UP as
 * soon as Redis answers, so a shaper started before its Redis runs on the fallback until then.
 * On Redis Cluster a script that meets a slot in migration ({@code TRYAGAIN}) is retried within
 * the call timeout; that is not an outage. Thread-safe.
 */
public final class RedisLink implements AutoCloseable {
    /** Pause between reconnection attempts while down. */
    static final Duration RETRY = Duration.ofMillis(500);
    /** Replies that mean "this server cannot run the scripts now": the link goes down and the fallback takes over. */
    private static final List<String> UNAVAILABLE_REPLIES = List.of("LOADING", "BUSY", "READONLY", "NOAUTH", "WRONGPASS",
            "NOPERM", "MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN");

    private final RedisEndpoint endpoint;
    private final RedisFallback fallback;
    private final Duration timeout;
    private final RedisConnector connector;
    private final String instance;
    private final String channelPrefix;
    private final Consumer<String> log;
    private final Map<String, LinkListener> byBaseKey = new ConcurrentHashMap<>();
    private final List<LinkListener> listeners = new CopyOnWriteArrayList<>();
    private final ScriptCache scripts = new ScriptCache();
    private final AtomicBoolean up = new AtomicBoolean(false);
    private final AtomicLong transitions = new AtomicLong();
    private final AtomicLong ids = new AtomicLong();
    private final Thread supervisor;
    private volatile Jedis subscriberConnection;
    private volatile boolean running = true;
    private volatile boolean everDown;
    private volatile String lastFailure;

    /**
     * @param timeout connect and socket timeout: a slower answer counts as Redis being unreachable
     * @param auth    credentials, or null to send none
     * @param tls     for {@code rediss://}, else null
     * @param log     one line per transition (no secrets: no endpoint holds a password)
     */
    public RedisLink(RedisEndpoint endpoint, String namespace, RedisFallback fallback, Duration timeout, RedisAuth auth,
                     RedisTls tls, Consumer<String> log) {
        this.endpoint = endpoint;
        this.fallback = fallback;
        this.timeout = timeout;
        this.log = log;
        this.connector = RedisConnector.of(endpoint, timeout, auth, tls);
        byte[] random = new byte[6];
        new SecureRandom().nextBytes(random);
        this.instance = HexFormat.of().formatHex(random);
        this.channelPrefix = namespace + ":grants:";
        this.supervisor = Thread.ofVirtual().name("shaper-redis-link").start(this::supervise);
    }

    /** Prefix of the per-instance grant channels; the scripts append the owning instance's id. */
    String channelPrefix() {
        return channelPrefix;
    }

    /** A cluster-unique id for a ticket or permit of this instance: {@code <instance>:<n>}. */
    String newId() {
        return instance + ":" + Long.toString(ids.incrementAndGet(), 36);
    }

    RedisFallback fallback() {
        return fallback;
    }

    boolean up() {
        return up.get();
    }

    /** Registers a limiter: its grant messages carry {@code baseKey}; it hears every transition. */
    void register(String baseKey, LinkListener listener) {
        byBaseKey.put(baseKey, listener);
        listeners.add(listener);
    }

    public LinkSnapshot snapshot() {
        String current = null;
        try {
            current = connector.client() == null ? null : connector.current();
        } catch (RuntimeException e) {
            // a client being rebuilt: unknown for this snapshot
        }
        return new LinkSnapshot(endpoint.toString(), endpoint.kind(), up.get(), transitions.get(), fallback, current,
                up.get() ? null : lastFailure, -1);
    }

    /**
     * Runs a lease script (see {@link ScriptCache}).
     *
     * @throws RedisUnavailable the link is down, or this call failed (the link is now down)
     */
    Object eval(String script, List<String> keys, List<String> args) {
        UnifiedJedis client = connector.client();
        if (!up.get() || client == null) {
            throw new RedisUnavailable("redis unreachable");
        }
        try {
            Object reply = scripts.run(client, script, keys, args, timeout);
            if (connector.subscriberMoved()) {
                resubscribe(); // after a failover the old master no longer receives the new master's grants
            }
            return reply;
        } catch (JedisDataException e) {
            String msg = String.valueOf(e.getMessage());
            if (UNAVAILABLE_REPLIES.stream().anyMatch(msg::startsWith)) {
                throw down(RedisFailure.isAuth(msg) ? RedisFailure.describe(e) : msg);
            }
            throw new IllegalStateException("cluster lease script failed: " + msg, e);
        } catch (JedisException e) {
            // unreachable, or a pool exhausted for longer than the timeout: as slow as an unreachable server
            throw down(RedisFailure.describe(e));
        }
    }

    private RedisUnavailable down(String why) {
        markDown(why);
        return new RedisUnavailable(why);
    }

    private void markDown(String why) {
        lastFailure = why;
        if (up.compareAndSet(true, false)) {
            everDown = true;
            transitions.incrementAndGet();
            log.accept("cluster limiter: " + endpoint + " unreachable (" + why + "); fallback " + fallback.name().toLowerCase()
                    + (fallback == RedisFallback.LOCAL ? ": each instance enforces its own limits" : ": new requests get 503"));
            Jedis sub = subscriberConnection;
            if (sub != null) {
                try {
                    sub.disconnect();
                } catch (RuntimeException ignored) {
                    // already broken
                }
            }
            notifyAll(LinkListener::linkDown);
        }
    }

    private void markUp() {
        // pooled connections opened before the outage point at a dead socket (or a restarted
        // server): drop them so the first call after recovery does not fail and flap the link
        connector.dropIdle();
        if (up.compareAndSet(false, true)) {
            String at = endpoint instanceof RedisEndpoint.Standalone ? "" : " (now " + connector.current() + ")";
            if (everDown) {
                transitions.incrementAndGet();
                log.accept("cluster limiter: " + endpoint + " reachable again" + at + "; cluster-wide limits resumed");
            } else {
                log.accept("cluster limiter: connected to " + endpoint + at + "; limits shared through redis");
            }
            notifyAll(LinkListener::linkUp);
        }
    }

    private void notifyAll(Consumer<LinkListener> event) {
        Thread.ofVirtual().name("shaper-redis-transition").start(() -> listeners.forEach(event));
    }

    /**
     * Connects, subscribes, and after any loss of the subscription starts over. A subscription
     * lost while the link is up (its node was demoted to a replica after a failover, or the
     * subscriber was moved to the new master) is reopened at once and is no outage by itself;
     * only a failed connection marks the link down, and then attempts come every {@link #RETRY}.
     */
    private void supervise() {
        boolean firstFailure = true;
        while (running) {
            Grants grants = new Grants();
            try (Jedis sub = connector.connect()) {
                subscriberConnection = sub;
                sub.subscribe(grants, channelPrefix + instance);
            } catch (RuntimeException e) {
                if (grants.established && up.get() && running) {
                    continue; // the subscription dropped while the scripts still ran: reconnect before calling it an outage
                }
                String why = RedisFailure.describe(e, endpoint.tls());
                if (!up.get() && firstFailure && !everDown) {
                    everDown = true;
                    transitions.incrementAndGet();
                    lastFailure = why;
                    log.accept("cluster limiter: " + endpoint + " unreachable at start (" + why + "); fallback "
                            + fallback.name().toLowerCase() + " until it answers");
                }
                firstFailure = false;
                markDown(why);
            } finally {
                subscriberConnection = null;
            }
            if (!running) {
                return;
            }
            if (up.get()) {
                continue; // the subscription ended without an error (the connection was closed to move it)
            }
            try {
                Thread.sleep(RETRY);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Closes the subscriber connection so the supervisor reopens it where the connector now points (a new master). */
    private void resubscribe() {
        Jedis sub = subscriberConnection;
        if (sub != null) {
            try {
                sub.disconnect();
            } catch (RuntimeException ignored) {
                // already broken: the supervisor reconnects anyway
            }
        }
    }

    /**
     * The instance's grant channel: each message is {@code <limiter base key> <ticket id>} for a grant,
     * {@code <limiter base key> !<ticket id>} for a refusal (ids never hold a space or a '!').
     */
    private final class Grants extends JedisPubSub {
        volatile boolean established;

        @Override
        public void onSubscribe(String channel, int count) {
            established = true;
            markUp();
        }

        @Override
        public void onMessage(String channel, String message) {
            int sp = message.lastIndexOf(' ');
            LinkListener l = sp < 0 ? null : byBaseKey.get(message.substring(0, sp));
            if (l != null) {
                l.pushed(message.substring(sp + 1));
            }
        }
    }

    /** Whether {@link #close()} was called. */
    boolean closed() {
        return !running;
    }

    @Override
    public void close() {
        running = false;
        up.set(false);
        Jedis sub = subscriberConnection;
        if (sub != null) {
            try {
                sub.disconnect();
            } catch (RuntimeException ignored) {
                // closing
            }
        }
        supervisor.interrupt();
        connector.close();
    }
}
