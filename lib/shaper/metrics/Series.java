package shaper.metrics;

import java.util.List;

/**
 * Every series family {@code /metrics} exports: the one list that the exporter registers from
 * and that README.md's metrics table is checked against. Each carries a {@code provider} label
 * ({@code default} for an unnamed single provider) besides the extra labels listed here, except the
 * configuration's series, which describe the whole proxy.
 */
public enum Series {
    ACTIVE("shaper_active", Type.GAUGE, List.of(), "Exchanges admitted and not finished (limited and passthrough)"),
    QUEUED("shaper_queued", Type.GAUGE, List.of(), "Requests waiting on this instance for a route, default-pool, global or large-request slot"),
    OLDEST_QUEUED("shaper_oldest_queued_seconds", Type.GAUGE, List.of(),
            "Age of the oldest limited request waiting on either limiter; 0 when none waits"),
    RETRIES_IN_FLIGHT("shaper_retries_in_flight", Type.GAUGE, List.of(), "Exchanges on a second or later attempt or in a retry backoff"),
    CLEAN_PROXIED("shaper_clean_proxied_total", Type.COUNTER, List.of(), "Clean completions on limited routes"),
    CLEAN_PASSTHROUGH("shaper_clean_passthrough_total", Type.COUNTER, List.of(),
            "Clean completions of passthrough traffic, :unlimited routes included"),
    ABORTED("shaper_aborted_total", Type.COUNTER, List.of(),
            "Exchanges that did not complete cleanly (client left, write failed, upstream body broke off)"),
    CIRCUIT_REJECTED("shaper_circuit_rejected_total", Type.COUNTER, List.of(), "Requests refused because the circuit was open"),
    QUEUE_REJECTED("shaper_queue_rejected_total", Type.COUNTER, List.of(), "Requests refused with 429 by a -queue-depth bound"),
    REQUESTS("shaper_requests_total", Type.COUNTER, List.of("status"),
            "Finished exchanges by committed status class 1xx..5xx (an aborted 200 counts here and in aborted)"),
    BREAKER_STATE("shaper_breaker_state", Type.GAUGE, List.of(), "Circuit state: 0 closed, 1 half-open, 2 open; absent when the breaker is off"),
    ROUTE_QUEUED("shaper_route_queued", Type.GAUGE, List.of("method", "path"), "Waiters per limited route; only while waiters exist"),
    ROUTE_OLDEST_QUEUED("shaper_route_oldest_queued_seconds", Type.GAUGE, List.of("method", "path"),
            "Oldest waiter's age per limited route; only while waiters exist"),
    QUEUE_WAIT("shaper_queue_wait_seconds", Type.HISTOGRAM, List.of(), "Time finished exchanges waited for their slots"),
    PROXY_ADDED("shaper_proxy_added_seconds", Type.HISTOGRAM, List.of(),
            "Time the proxy added: arrival to upstream request sent, plus upstream headers to client headers, queue excluded"),
    TIME_TO_FIRST_BYTE("shaper_time_to_first_byte_seconds", Type.HISTOGRAM, List.of(), "Arrival to the client's response headers"),
    EXCHANGE_DURATION("shaper_exchange_duration_seconds", Type.HISTOGRAM, List.of(), "Arrival to the end of the exchange"),
    LIMITER_BACKEND_UP("shaper_limiter_backend_up", Type.GAUGE, List.of(),
            "1 while the provider's limits are shared through Redis, 0 while its fallback is in force; absent when its limiters are in-process"),
    LIMITER_BACKEND_TRANSITIONS("shaper_limiter_backend_transitions_total", Type.COUNTER, List.of(),
            "Times the provider's Redis link went down or came back; absent when its limiters are in-process"),
    TOKENS("shaper_tokens_total", Type.COUNTER, List.of("model", "type"),
            "Tokens of finished exchanges by model (the first 32 per provider, then other) and type: input excludes cache reads and"
                    + " writes in every dialect; output counts every output token, reasoning included, and reasoning is that part again;"
                    + " answers without usage count estimates"),
    MODEL_REQUESTS("shaper_model_requests_total", Type.COUNTER, List.of("model", "status"),
            "Finished exchanges that named a model, by model and committed status class 1xx..5xx"),
    UPSTREAM_RATELIMIT_LIMIT("shaper_upstream_ratelimit_limit", Type.GAUGE, List.of("kind"),
            "The upstream's limit per kind (requests, tokens, input_tokens, output_tokens) from its newest rate-limit headers"),
    UPSTREAM_RATELIMIT_REMAINING("shaper_upstream_ratelimit_remaining", Type.GAUGE, List.of("kind"),
            "What the upstream's newest rate-limit headers say remains, per kind"),
    UPSTREAM_RATELIMIT_RESET("shaper_upstream_ratelimit_reset_seconds", Type.GAUGE, List.of("kind"),
            "Seconds from now until the upstream's stated reset, per kind; 0 once passed"),
    BUDGET_LEVEL("shaper_budget_level", Type.GAUGE, List.of("kind"),
            "Tokens (or requests) in the budget's bucket now, per kind; negative while a request larger than the bucket is paid back"),
    BUDGET_WAITS("shaper_budget_waits_total", Type.COUNTER, List.of("kind"),
            "Requests that waited for the budget, by what they waited for (requests, tokens, input, output, retry_after)"),
    CLUSTER_QUEUED("shaper_cluster_queued", Type.GAUGE, List.of(),
            "Requests of every instance waiting in the provider's Redis queues; absent when in-process or while Redis is unreachable"),
    SLOTS("shaper_slots", Type.GAUGE, List.of("limiter", "state"),
            "Slots of each limiter not free: active (serving an exchange), cooling (release cooldown), held (failure hold, phantom penalty, cancel cooldown)"),
    LIMIT("shaper_limit", Type.GAUGE, List.of("limiter"),
            "Each limiter's limit in force: the adaptive limit (or the configured one) less the slot adaptive headroom withholds"),
    CLASS_QUEUED("shaper_class_queued", Type.GAUGE, List.of("class"),
            "Requests waiting per priority class over all the provider's limiters; only when classes are declared"),
    CLASS_QUEUE_WAIT("shaper_class_queue_wait_seconds", Type.HISTOGRAM, List.of("class"),
            "Time finished exchanges of each priority class waited for their slots; only when classes are declared"),
    PRIORITY_UNKNOWN("shaper_priority_unknown_total", Type.COUNTER, List.of(),
            "Requests whose priority header named an undeclared class (served in a rule's or the default class)"),
    BUILD_INFO("shaper_build_info", Type.GAUGE, List.of("version"), "Always 1; the version label names the running build"),
    CONFIG_RELOADS("shaper_config_reloads_total", Type.COUNTER, List.of("result"),
            "Configuration reloads (SIGHUP, -config-watch) by result: ok (applied) or error (refused, running configuration kept)", false),
    CONFIG_GENERATION("shaper_config_generation", Type.GAUGE, List.of(),
            "The configuration in force: 1 at startup, +1 per applied reload", false);

    /** The exposition type of a family. */
    public enum Type {
        GAUGE, COUNTER, HISTOGRAM
    }

    private final String metricName;
    private final Type type;
    private final List<String> labels;
    private final String help;
    private final boolean perProvider;

    Series(String metricName, Type type, List<String> labels, String help) {
        this(metricName, type, labels, help, true);
    }

    Series(String metricName, Type type, List<String> labels, String help, boolean perProvider) {
        this.metricName = metricName;
        this.type = type;
        this.labels = labels;
        this.help = help;
        this.perProvider = perProvider;
    }

    /** Whether each sample carries the {@code provider} label (false for the proxy-wide configuration series). */
    public boolean perProvider() {
        return perProvider;
    }

    /** The exported family name ({@code _total} included for counters). */
    public String metricName() {
        return metricName;
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

    /** The name the Prometheus client builders take: counters without their {@code _total}. */
    String builderName() {
        return type == Type.COUNTER ? metricName.substring(0, metricName.length() - "_total".length()) : metricName;
    }

    /** {@code provider} (when {@link #perProvider()}) followed by the extra labels. */
    String[] labelNames() {
        List<String> names = new java.util.ArrayList<>();
        if (perProvider) {
            names.add("provider");
        }
        names.addAll(labels);
        return names.toArray(String[]::new);
    }
}
