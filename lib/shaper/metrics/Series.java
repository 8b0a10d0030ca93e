package shaper.metrics;

import static shaper.metrics.Series.Type.COUNTER;
import static shaper.metrics.Series.Type.GAUGE;
import static shaper.metrics.Series.Type.HISTOGRAM;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;

/**
 * Every series family {@code /metrics} exports: the one list that the exporter registers from
 * and that README.md's metrics table is checked against. Each carries a {@code provider} label
 * ({@code default} for an unnamed single provider) besides the extra labels listed here, except the
 * configuration's series, which describe the whole proxy. A family's name derives from its
 * constant ({@link #metricName()}), so the table cannot name a family twice.
 */
public enum Series {
    ACTIVE(GAUGE, "Exchanges admitted and not finished (limited and passthrough)"),
    QUEUED(GAUGE, "Requests waiting on this instance for a route, default-pool, global or large-request slot"),
    OLDEST_QUEUED_SECONDS(GAUGE, "Age of the oldest limited request waiting on either limiter; 0 when none waits"),
    RETRIES_IN_FLIGHT(GAUGE, "Exchanges on a second or later attempt or in a retry backoff"),
    CLEAN_PROXIED(COUNTER, "Clean completions on limited routes"),
    CLEAN_PASSTHROUGH(COUNTER, "Clean completions of passthrough traffic, :unlimited routes included"),
    ABORTED(COUNTER, "Exchanges that did not complete cleanly (client left, write failed, upstream body broke off)"),
    CIRCUIT_REJECTED(COUNTER, "Requests refused because the circuit was open"),
    QUEUE_REJECTED(COUNTER, "Requests refused with 429 by a -queue-depth bound"),
    REQUESTS(COUNTER, "Finished exchanges by committed status class 1xx..5xx (an aborted 200 counts here and in aborted)", "status"),
    BREAKER_STATE(GAUGE, "Circuit state: 0 closed, 1 half-open, 2 open; absent when the breaker is off"),
    ROUTE_QUEUED(GAUGE, "Waiters per limited route; only while waiters exist", "method", "path"),
    ROUTE_OLDEST_QUEUED_SECONDS(GAUGE, "Oldest waiter's age per limited route; only while waiters exist", "method", "path"),
    QUEUE_WAIT_SECONDS(HISTOGRAM, "Time finished exchanges waited for their slots"),
    PROXY_ADDED_SECONDS(HISTOGRAM, "Time the proxy added: arrival to upstream request sent, plus upstream headers to client headers,"
            + " queue excluded"),
    TIME_TO_FIRST_BYTE_SECONDS(HISTOGRAM, "Arrival to the client's response headers"),
    EXCHANGE_DURATION_SECONDS(HISTOGRAM, "Arrival to the end of the exchange"),
    LIMITER_BACKEND_UP(GAUGE, "1 while the provider's limits are shared through Redis, 0 while its fallback is in force; absent when"
            + " its limiters are in-process"),
    LIMITER_BACKEND_TRANSITIONS(COUNTER, "Times the provider's Redis link went down or came back; absent when its limiters are in-process"),
    TOKENS(COUNTER, "Tokens of finished exchanges by model (the first 32 per provider, then other) and type: input excludes cache reads and"
            + " writes in every dialect; output counts every output token, reasoning included, and reasoning is that part again;"
            + " answers without usage count estimates", "model", "type"),
    MODEL_REQUESTS(COUNTER, "Finished exchanges that named a model, by model and committed status class 1xx..5xx", "model", "status"),
    UPSTREAM_RATELIMIT_LIMIT(GAUGE, "The upstream's limit per kind (requests, tokens, input_tokens, output_tokens) from its newest"
            + " rate-limit headers", "kind"),
    UPSTREAM_RATELIMIT_REMAINING(GAUGE, "What the upstream's newest rate-limit headers say remains, per kind", "kind"),
    UPSTREAM_RATELIMIT_RESET_SECONDS(GAUGE, "Seconds from now until the upstream's stated reset, per kind; 0 once passed", "kind"),
    BUDGET_LEVEL(GAUGE, "Tokens (or requests) in the budget's bucket now, per kind; negative while a request larger than the bucket"
            + " is paid back", "kind"),
    BUDGET_WAITS(COUNTER, "Requests that waited for the budget, by what they waited for (requests, tokens, input, output,"
            + " retry_after)", "kind"),
    CLUSTER_QUEUED(GAUGE, "Requests of every instance waiting in the provider's Redis queues; absent when in-process or while Redis"
            + " is unreachable"),
    SLOTS(GAUGE, "Slots of each limiter not free: active (serving an exchange), cooling (release cooldown), held (failure hold,"
            + " phantom penalty, cancel cooldown)", "limiter", "state"),
    LIMIT(GAUGE, "Each limiter's limit in force: the adaptive limit (or the configured one) less the slot adaptive headroom"
            + " withholds", "limiter"),
    CLASS_QUEUED(GAUGE, "Requests waiting per priority class over all the provider's limiters and its token budget; only when classes are declared", "class"),
    CLASS_QUEUE_WAIT_SECONDS(HISTOGRAM, "Time finished exchanges of each priority class waited for their slots; only when classes"
            + " are declared", "class"),
    WEBSOCKET_SESSIONS(GAUGE, "Responses WebSocket sessions the proxy holds open (terminated, not tunnelled); each turn counts as an exchange"),
    CLIENT_ACTIVE(GAUGE, "Exchanges admitted and not finished per client (the first 32 clients seen, later ones as other);"
            + " absent with -client-metrics=false", "client"),
    CLIENT_QUEUED(GAUGE, "Requests waiting per client, in any limiter or the token budget", "client"),
    CLIENT_REQUESTS(COUNTER, "Finished exchanges per client by committed status class (none when nothing was committed)",
            "client", "status"),
    CLIENT_TOKENS(COUNTER, "Tokens per client by type (input counts every input token), reported or estimated", "client", "type"),
    CLIENT_QUEUE_WAIT_SECONDS(HISTOGRAM, "Time finished exchanges of each client waited for their slots", "client"),
    PRIORITY_UNKNOWN(COUNTER, "Requests whose priority header named an undeclared class (served in a rule's or the default class)"),
    BUILD_INFO(GAUGE, "Always 1; the version label names the running build", "version"),
    CONFIG_RELOADS(Scope.PROXY, COUNTER, "Configuration reloads (SIGHUP, -config-watch) by result: ok (applied) or error (refused,"
            + " running configuration kept)", "result"),
    CONFIG_GENERATION(Scope.PROXY, GAUGE, "The configuration in force: 1 at startup, +1 per applied reload"),
    ROUTE_REQUESTS(Scope.PROXY, COUNTER, "Finished exchanges of the routed mount by route (its pattern) and the provider that served"
            + " them last", "route", "target"),
    FALLBACKS(Scope.PROXY, COUNTER, "Moves of a routed request from one target to the next before its answer started, by route,"
            + " the provider left, the provider tried next and the trigger (429, 529, 5xx, 402, 403, transport, circuit_open,"
            + " queue_wait, queue_full, limiter_unavailable)", "route", "from", "to", "reason");

    /** The exposition type of a family. */
    public enum Type {
        GAUGE, COUNTER, HISTOGRAM
    }

    /** Whose state a family describes: each provider's (a {@code provider} label) or the whole proxy's. */
    enum Scope {
        PROVIDER, PROXY
    }

    private final Scope scope;
    private final Type type;
    private final String help;
    private final List<String> labels;

    Series(Type type, String help, String... labels) {
        this(Scope.PROVIDER, type, help, labels);
    }

    Series(Scope scope, Type type, String help, String... labels) {
        this.scope = scope;
        this.type = type;
        this.help = help;
        this.labels = List.of(labels);
    }

    /** Whether each sample carries the {@code provider} label (false for the proxy-wide configuration series). */
    public boolean perProvider() {
        return scope == Scope.PROVIDER;
    }

    /**
     * The exported family name: {@code shaper_} and the constant's name, whose last word is the unit
     * where there is one ({@code _seconds}), and {@code _total} for counters, as Prometheus names them.
     */
    public String metricName() {
        return type == Type.COUNTER ? builderName() + "_total" : builderName();
    }

    public Type type() {
        return type;
    }

    /** Labels besides {@code provider}. */
    public List<String> labels() {
        return labels;
    }

    public String help() {
        return help;
    }

    /** A gauge of this family, named, described and labelled; the caller adds the callback. */
    GaugeWithCallback.Builder gauge() {
        return GaugeWithCallback.builder().name(metricName()).help(help).labelNames(labelNames());
    }

    /** A counter of this family, named, described and labelled; the caller adds the callback. */
    CounterWithCallback.Builder counter() {
        return CounterWithCallback.builder().name(builderName()).help(help).labelNames(labelNames());
    }

    /** A counter of this family that the caller increments (not read back from a snapshot). */
    io.prometheus.metrics.core.metrics.Counter.Builder incremented() {
        return io.prometheus.metrics.core.metrics.Counter.builder().name(builderName()).help(help).labelNames(labelNames());
    }

    /** A histogram of this family, named, described and labelled; the caller adds the buckets. */
    Histogram.Builder histogram() {
        return Histogram.builder().name(metricName()).help(help).labelNames(labelNames());
    }

    /** The name the Prometheus client builders take: counters without their {@code _total}. */
    private String builderName() {
        return "shaper_" + name().toLowerCase(Locale.ROOT);
    }

    /** {@code provider} (when {@link #perProvider()}) followed by the extra labels. */
    private String[] labelNames() {
        List<String> names = new ArrayList<>();
        if (perProvider()) {
            names.add("provider");
        }
        names.addAll(labels);
        return names.toArray(String[]::new);
    }
}
