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

import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * One process's connection to the Redis behind its cluster limiters: a pool for the lease scripts,
 * one subscriber connection on this instance's grant channel, and the up/down state.
 *
 * <pre>
 *   DOWN ──ping ok, subscribed to the grant channel──▶ UP ──any call fails or times out──▶ DOWN
 *     ▲  (supervisor retries every {@link #RETRY})              │  (subscriber connection drops)
 *     └──────────────────────────────────────────────────────────┘
 * </pre>
 * Each transition is logged once and counted; listeners (the limiters) hear it on a fresh virtual
 * thread, so a request thread that noticed the failure is not held up by the fallback work. While
 * DOWN every call fails at once without touching the network. The link starts DOWN and goes UP as
 * soon as Redis answers, so a shaper started before its Redis runs on the fallback until then.
 * Thread-safe.
 */
public final class RedisLink implements AutoCloseable {
    /** Pause between reconnection attempts while down. */
    static final Duration RETRY = Duration.ofMillis(500);
    private static final int POOL_SIZE = 64;

    /** What a limiter hears from its link. */
    interface Listener {
        /** A ticket of this limiter was granted in Redis (pushed on the instance's channel). */
        void granted(String ticketId);

        void linkDown();

        void linkUp();
    }

    private final RedisEndpoint endpoint;
    private final RedisFallback fallback;
    private final JedisClientConfig clientConfig;
    private final RedisClient client;
    private final String instance;
    private final String channelPrefix;
    private final Consumer<String> log;
    private final Map<String, Listener> byBaseKey = new ConcurrentHashMap<>();
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final Map<String, String> shas = new ConcurrentHashMap<>();
    private final AtomicBoolean up = new AtomicBoolean(false);
    private final AtomicLong transitions = new AtomicLong();
    private final AtomicLong ids = new AtomicLong();
    private final Thread supervisor;
    private volatile Jedis subscriberConnection;
    private volatile boolean running = true;
    private volatile boolean everDown;

    /**
     * @param timeout connect and socket timeout: a slower answer counts as Redis being unreachable
     * @param log     one line per transition (no secrets: the endpoint has no password)
     */
    public RedisLink(RedisEndpoint endpoint, String namespace, RedisFallback fallback, Duration timeout, String password,
                     Consumer<String> log) {
        this.endpoint = endpoint;
        this.fallback = fallback;
        this.log = log;
        DefaultJedisClientConfig.Builder cfg = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis((int) timeout.toMillis())
                .socketTimeoutMillis((int) timeout.toMillis())
                .database(endpoint.db())
                .clientName("shaper");
        if (password != null && !password.isEmpty()) {
            cfg.password(password);
        }
        this.clientConfig = cfg.build();
        GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(POOL_SIZE);
        pool.setMaxIdle(POOL_SIZE);
        pool.setMinIdle(0);
        pool.setMaxWait(timeout.multipliedBy(2));
        pool.setJmxEnabled(false);
        pool.setTestOnBorrow(false);
        this.client = RedisClient.builder().hostAndPort(new HostAndPort(endpoint.host(), endpoint.port()))
                .clientConfig(clientConfig).poolConfig(pool).build();
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
    void register(String baseKey, Listener listener) {
        byBaseKey.put(baseKey, listener);
        listeners.add(listener);
    }

    public LinkSnapshot snapshot() {
        return new LinkSnapshot(endpoint.toString(), up.get(), transitions.get(), fallback);
    }

    /**
     * Runs a lease script by its SHA, loading it first if the server does not know it (after a
     * restart).
     *
     * @throws RedisUnavailable the link is down, or this call failed (the link is now down)
     */
    Object eval(String script, List<String> keys, List<String> args) {
        if (!up.get()) {
            throw new RedisUnavailable("redis unreachable");
        }
        try {
            String sha = shas.computeIfAbsent(script, client::scriptLoad);
            try {
                return client.evalsha(sha, keys, args);
            } catch (JedisNoScriptException e) {
                sha = client.scriptLoad(script);
                shas.put(script, sha);
                return client.evalsha(sha, keys, args);
            }
        } catch (JedisDataException e) {
            String msg = String.valueOf(e.getMessage());
            if (msg.startsWith("LOADING") || msg.startsWith("BUSY") || msg.startsWith("READONLY") || msg.startsWith("NOAUTH")
                    || msg.startsWith("MASTERDOWN") || msg.startsWith("TRYAGAIN")) {
                markDown(msg);
                throw new RedisUnavailable(msg);
            }
            throw new IllegalStateException("cluster lease script failed: " + msg, e);
        } catch (JedisConnectionException e) {
            markDown(describe(e));
            throw new RedisUnavailable(describe(e));
        } catch (JedisException e) {
            // pool exhausted for longer than the timeout: as slow as an unreachable server
            markDown(describe(e));
            throw new RedisUnavailable(describe(e));
        }
    }

    private static String describe(Exception e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }

    private void markDown(String why) {
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
            notifyAll(Listener::linkDown);
        }
    }

    private void markUp() {
        // pooled connections opened before the outage point at a dead socket (or a restarted
        // server): drop them so the first call after recovery does not fail and flap the link
        client.getPool().clear();
        if (up.compareAndSet(false, true)) {
            if (everDown) {
                transitions.incrementAndGet();
                log.accept("cluster limiter: " + endpoint + " reachable again; cluster-wide limits resumed");
            } else {
                log.accept("cluster limiter: connected to " + endpoint + "; limits shared through redis");
            }
            notifyAll(Listener::linkUp);
        }
    }

    private void notifyAll(Consumer<Listener> event) {
        Thread.ofVirtual().name("shaper-redis-transition").start(() -> listeners.forEach(event));
    }

    /** Connects, subscribes, and after any loss of the subscription waits {@link #RETRY} and starts over. */
    private void supervise() {
        boolean firstFailure = true;
        while (running) {
            try (Jedis sub = new Jedis(new HostAndPort(endpoint.host(), endpoint.port()), clientConfig)) {
                sub.ping();
                subscriberConnection = sub;
                sub.subscribe(new Grants(), channelPrefix + instance);
            } catch (RuntimeException e) {
                if (!up.get() && firstFailure && !everDown) {
                    everDown = true;
                    transitions.incrementAndGet();
                    log.accept("cluster limiter: " + endpoint + " unreachable at start (" + describe(e) + "); fallback "
                            + fallback.name().toLowerCase() + " until it answers");
                }
                firstFailure = false;
                markDown(describe(e));
            } finally {
                subscriberConnection = null;
            }
            if (!running) {
                return;
            }
            try {
                Thread.sleep(RETRY);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The instance's grant channel: each message is {@code <limiter base key> <ticket id>}. */
    private final class Grants extends JedisPubSub {
        @Override
        public void onSubscribe(String channel, int count) {
            markUp();
        }

        @Override
        public void onMessage(String channel, String message) {
            int sp = message.lastIndexOf(' ');
            Listener l = sp < 0 ? null : byBaseKey.get(message.substring(0, sp));
            if (l != null) {
                l.granted(message.substring(sp + 1));
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
        client.close();
    }
}
