package shaper.cluster;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

import shaper.admission.LimiterFactory;
import shaper.limit.AdaptiveConcurrency;
import shaper.limit.LimitChange;
import shaper.limit.Limiter;
import shaper.limit.TimeSource;

/**
 * One provider's cluster backend: its {@link RedisLink} and the factory of its {@link ClusterLimiter}s,
 * all under the provider's namespace. Built once at startup when {@code -limiter-backend} is set;
 * closing it closes the link (permits still held expire in Redis after the lease).
 */
public final class ClusterBackend implements LimiterFactory, AutoCloseable {
    private final ClusterConfig config;
    private final String namespace;
    private final RedisLink link;
    private final TimeSource time;
    private final List<ClusterLimiter> limiters = new CopyOnWriteArrayList<>();

    private ClusterBackend(ClusterConfig config, String namespace, RedisLink link, TimeSource time) {
        this.config = config;
        this.namespace = namespace;
        this.link = link;
        this.time = time;
    }

    /**
     * Reads the credentials and TLS files, then connects in the background (the shaper starts on
     * the fallback if Redis is not up yet).
     *
     * @param upstream the provider's upstream, from which the default namespace is derived
     * @param env      environment lookup, for {@code -limiter-redis-auth env:VAR} and {@value RedisEndpoint#PASSWORD_ENV}
     * @param log      transition lines
     * @throws shaper.config.ConfigException an unreadable secret or certificate file
     */
    public static ClusterBackend open(ClusterConfig config, URI upstream, TimeSource time, Function<String, String> env,
                                      Consumer<String> log) {
        if (!config.clustered()) {
            throw new IllegalArgumentException("no -limiter-backend configured");
        }
        String ns = config.namespaceFor(upstream);
        RedisAuth auth = RedisAuth.read(config.security().auth(), env);
        RedisTls tls = config.backend().tls() ? config.security().tls() : null;
        RedisLink link = new RedisLink(config.backend(), ns, config.fallback(), config.timeout(), auth, tls, log);
        return new ClusterBackend(config, ns, link, time);
    }

    @Override
    public Limiter create(String key, String name, int limit, Duration releaseCooldown, Duration headroomWindow) {
        return create(key, name, limit, releaseCooldown, headroomWindow, null);
    }

    /**
     * The factory of cluster-wide limiters whose configured limit is the ceiling of a limit learnt
     * and shared through Redis ({@code -adaptive-concurrency}): a signal any instance sees moves it
     * for all.
     *
     * @param min      {@code -concurrency-min}
     * @param onChange told of every move this instance's releases cause, with the limiter's key
     */
    public LimiterFactory adaptive(int min, BiConsumer<String, LimitChange> onChange) {
        return (key, name, limit, cooldown, headroom) -> create(key, name, limit, cooldown, headroom,
                new AdaptiveConcurrency(min, change -> onChange.accept(key, change)));
    }

    private Limiter create(String key, String name, int limit, Duration releaseCooldown, Duration headroomWindow,
                           AdaptiveConcurrency adaptive) {
        ClusterLimiter l = new ClusterLimiter(namespace, key, name, limit, releaseCooldown, headroomWindow, config.lease(), link,
                time, adaptive);
        limiters.add(l);
        return l;
    }

    /** {@code config}'s token buckets in Redis, shared by every instance of this namespace (see {@link RedisTokenBuckets}). */
    public shaper.budget.BucketStore tokenBuckets(shaper.budget.BudgetConfig config) {
        return new RedisTokenBuckets(namespace, config, link, time);
    }

    /** The key prefix in use. */
    public String namespace() {
        return namespace;
    }

    /** The link's state, for metrics and tests; {@code clusterWaiters} is not asked (no Redis call). */
    public LinkSnapshot snapshot() {
        return link.snapshot();
    }

    /**
     * The link's state with the queue of every instance ({@code clusterWaiters}), asked from Redis:
     * one call per limiter, for a scrape or a health check.
     */
    public LinkSnapshot snapshotWithQueue() {
        LinkSnapshot s = link.snapshot();
        if (!s.up()) {
            return s;
        }
        long sum = 0;
        for (ClusterLimiter l : limiters) {
            long w = l.clusterWaiters();
            if (w < 0) {
                return s;
            }
            sum += w;
        }
        return s.withClusterWaiters(sum);
    }

    /** One startup line: where the limits live, never a password. */
    public String describe() {
        return "limits shared through " + link.snapshot().endpoint() + " namespace=" + namespace + " lease="
                + shaper.config.GoDuration.format(config.lease()) + " timeout=" + shaper.config.GoDuration.format(config.timeout()) + " fallback=" + config.fallback().name().toLowerCase();
    }

    @Override
    public void close() {
        link.close();
    }
}
