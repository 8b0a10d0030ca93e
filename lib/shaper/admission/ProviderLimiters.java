package shaper.admission;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import shaper.limit.Limiter;
import shaper.limit.LimiterView;
import shaper.limit.TimeSource;
import shaper.route.RouteClass;
import shaper.route.RouteMatch;
import shaper.route.RouteTable;

/**
 * One provider's limiters: a limiter per route class (pattern or {@code @group}) with its own
 * {@code :N}, the default pool ({@code -concurrency}) and the optional global limiter
 * ({@code -global-concurrency}). Classification:
 * <ul>
 *   <li>{@code :unlimited} match: no limiter at all, not even the global one;</li>
 *   <li>match with {@code :N}: that route's limiter, then global;</li>
 *   <li>match without {@code :N}: the default pool, then global;</li>
 *   <li>no match: the default pool under {@code -limit-all}, else passthrough; then global.</li>
 * </ul>
 * A request whose body is large enough ({@code -big-ctx-tokens}) then also takes a permit of the
 * large-request gate, held like the other slots until its response has drained.
 */
public final class ProviderLimiters {
    private static final int POOL_FLOOR = 20;
    /** Idle pool when no global limiter bounds passthrough traffic, so its bursts do not churn connections. */
    private static final int UNBOUNDED_PASSTHROUGH_POOL = 128;

    private final RouteTable routes;
    private final boolean limitAll;
    private final Map<String, Limiter> byRoute;
    private final Limiter defaultPool;
    private final Limiter global;
    private final int upstreamPoolSize;
    private final long bigCtxBytes;
    private final Limiter bigCtxGate;

    /**
     * @param bigCtxTokens      requests whose body is at least this many estimated tokens (bytes / 4)
     *                          also pass the large-request gate; 0 = no gate
     * @param bigCtxConcurrency permits of that gate
     */
    public ProviderLimiters(String provider, AdmissionConfig config, int bigCtxTokens, int bigCtxConcurrency, TimeSource time) {
        this(provider, config, bigCtxTokens, bigCtxConcurrency, LimiterFactory.inProcess(time));
    }

    /** As above, with each limiter built by {@code factory} (in-process or cluster-wide). */
    public ProviderLimiters(String provider, AdmissionConfig config, int bigCtxTokens, int bigCtxConcurrency, LimiterFactory factory) {
        this.routes = RouteTable.of(config.limits());
        this.limitAll = config.limitAll();
        var headroom = config.adaptiveHeadroom() ? config.adaptiveHeadroomWindow() : Duration.ZERO;
        Map<String, Limiter> map = new LinkedHashMap<>();
        boolean usesDefault = config.limitAll();
        int caps = 0;
        for (RouteClass rc : routes.limiterClasses()) {
            if (rc.limit() > 0) {
                map.put(rc.key(), factory.create(rc.key(), provider + " " + rc.key(), rc.limit(), config.releaseCooldown(), headroom));
                caps += rc.limit();
            } else {
                usesDefault = true;
            }
        }
        this.byRoute = Collections.unmodifiableMap(map);
        this.defaultPool = factory.create(LimiterViews.POOL, provider + " " + LimiterViews.POOL, config.concurrency(), config.releaseCooldown(), headroom);
        this.global = config.globalConcurrency() > 0
                ? factory.create(LimiterViews.GLOBAL, provider + " " + LimiterViews.GLOBAL, config.globalConcurrency(), config.releaseCooldown(), headroom)
                : null;
        if (usesDefault) {
            caps += config.concurrency();
        }
        if (global != null) {
            caps = Math.min(caps, config.globalConcurrency());
        }
        int floor = global != null || limitAll ? POOL_FLOOR : UNBOUNDED_PASSTHROUGH_POOL;
        this.upstreamPoolSize = Math.max(floor, caps);
        this.bigCtxBytes = bigCtxTokens > 0 ? bigCtxTokens * 4L : Long.MAX_VALUE;
        this.bigCtxGate = bigCtxTokens > 0 ? factory.create(LimiterViews.GATE, provider + " " + LimiterViews.GATE, bigCtxConcurrency, Duration.ZERO, Duration.ZERO) : null;
    }

    /**
     * The limiters a request must pass.
     *
     * @param bodyLength the request body's declared length, -1 when unknown (a chunked body never
     *                   counts as large: its size is not known before it is read)
     */
    public AdmissionClass classify(String method, String rawPath, long bodyLength) {
        Optional<RouteMatch> match = routes.match(method, rawPath);
        if (match.isPresent() && match.get().unlimited()) {
            return AdmissionClass.UNLIMITED;
        }
        Limiter pool = null;
        String route = "";
        if (match.isPresent()) {
            RouteMatch m = match.get();
            pool = m.limit() > 0 ? byRoute.get(m.limiterKey()) : defaultPool;
            route = m.limiterKey();
        } else if (limitAll) {
            pool = defaultPool;
        }
        Limiter gate = bigCtxGate != null && bodyLength >= bigCtxBytes ? bigCtxGate : null;
        return new AdmissionClass(pool, global, gate, pool != null, route, false, null);
    }

    /** The large-request gate's threshold in body bytes ({@code 4 × -big-ctx-tokens}); {@link Long#MAX_VALUE} without a gate. */
    public long largeRequestBytes() {
        return bigCtxBytes;
    }

    /**
     * The limiter named {@code key} (a route class key, {@code default}, {@code global} or
     * {@code large-request gate}), if this provider has it: a reload keeps it, resized in place.
     */
    public Optional<Limiter> limiter(String key) {
        return Optional.ofNullable(switch (key) {
            case LimiterViews.POOL -> defaultPool;
            case LimiterViews.GLOBAL -> global;
            case LimiterViews.GATE -> bigCtxGate;
            default -> byRoute.get(key);
        });
    }

    /**
     * Upstream keep-alive pool size: the sum of the caps in use, capped by the global limit, at least
     * 20; at least 128 when passthrough traffic is unbounded (no global limiter, no -limit-all).
     */
    public int upstreamPoolSize() {
        return upstreamPoolSize;
    }

    /** Warnings found while building the route table (group limit conflicts), for the startup log. */
    public List<String> warnings() {
        return routes.warnings();
    }

    /** Every limiter's view (held slots, waiters per class), each in its role. */
    public LimiterViews views() {
        Map<String, LimiterView> byKey = new LinkedHashMap<>();
        byRoute.forEach((key, l) -> byKey.put(key, l.view()));
        return new LimiterViews(byKey, defaultPool.view(), Optional.ofNullable(global).map(Limiter::view),
                Optional.ofNullable(bigCtxGate).map(Limiter::view));
    }
}
