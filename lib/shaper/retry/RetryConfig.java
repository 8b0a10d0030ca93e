package shaper.retry;

import java.time.Duration;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

import shaper.config.ConfigException;
import shaper.config.DurationFlags;
import shaper.config.GoDuration;

/**
 * Provider-scope retry settings, validated once at startup. Defaults (the flag table):
 *
 * <table>
 * <tr><th>flag</th><th>default</th><th>component</th></tr>
 * <tr><td>{@code -retry}</td><td>-1 (unlimited; 0 disables)</td><td>{@link #retry}</td></tr>
 * <tr><td>{@code -retry-wait-min}</td><td>500ms</td><td>{@link #waitMin}</td></tr>
 * <tr><td>{@code -retry-wait-max}</td><td>30s</td><td>{@link #waitMax}</td></tr>
 * <tr><td>{@code -retry-min-delay}</td><td>1s</td><td>{@link #minDelay}</td></tr>
 * <tr><td>{@code -retry-skip-429}</td><td>true</td><td>{@link #skip429}</td></tr>
 * <tr><td>{@code -retry-max-body-mb}</td><td>5 (MiB)</td><td>{@link #maxBodyMb}</td></tr>
 * <tr><td>{@code -retry-status}</td><td>422,429</td><td>{@link #retryStatus}</td></tr>
 * <tr><td>{@code -retry-deadline}</td><td>5m</td><td>{@link #deadline}</td></tr>
 * <tr><td>{@code -retry-keepalive}</td><td>10s (0 disables)</td><td>{@link #keepalive}</td></tr>
 * <tr><td>{@code -upstream-timeout}</td><td>10m</td><td>{@link #upstreamTimeout}</td></tr>
 * <tr><td>{@code -inspect-sse}</td><td>true</td><td>{@link #inspectSse}</td></tr>
 * <tr><td>{@code -strip-stale-reasoning}</td><td>true</td><td>{@link #stripStaleReasoning}</td></tr>
 * </table>
 *
 * @param retry               retries after the first call: -1 unlimited, 0 off, N allows N+1 upstream calls
 * @param waitMin             first backoff step; also the lower clamp after jitter
 * @param waitMax             backoff cap after jitter; a Retry-After may exceed it
 * @param minDelay            floor on every retry wait, applied last
 * @param skip429             a 429 is never retried, whatever its body says
 * @param maxBodyMb           request bodies up to this many MiB are buffered for replay; larger ones go once
 * @param retryStatus         statuses whose body is matched against {@link ErrorWording}; never null, 100–599
 * @param deadline            budget for all attempts plus backoff of one request; &gt; 0
 * @param keepalive           interval of keepalives while a streaming request waits on backoff; 0 disables
 * @param upstreamTimeout     bound on each upstream call, body included; &gt; 0
 * @param inspectSse          inspect the start of an HTTP 200 event stream for an early error
 * @param stripStaleReasoning after a recognized 400 resource mismatch, strip cc-switch reasoning carriers once
 */
public record RetryConfig(
        int retry,
        Duration waitMin,
        Duration waitMax,
        Duration minDelay,
        boolean skip429,
        int maxBodyMb,
        Set<Integer> retryStatus,
        Duration deadline,
        Duration keepalive,
        Duration upstreamTimeout,
        boolean inspectSse,
        boolean stripStaleReasoning) {

    /** {@code -retry} value meaning "no attempt limit" (the deadline still bounds the request). */
    public static final int UNLIMITED = -1;

    /** The defaults of every retry flag. */
    public static final RetryConfig DEFAULTS = builder().build();

    public RetryConfig {
        if (retry < UNLIMITED) {
            throw new ConfigException("-retry must be >= -1, got " + retry);
        }
        DurationFlags.nonNegative("-retry-wait-min", waitMin);
        DurationFlags.nonNegative("-retry-wait-max", waitMax);
        DurationFlags.nonNegative("-retry-min-delay", minDelay);
        DurationFlags.nonNegative("-retry-keepalive", keepalive);
        if (waitMax.compareTo(waitMin) < 0) {
            throw new ConfigException("-retry-wait-max must be >= -retry-wait-min (" + GoDuration.format(waitMin)
                    + "), got " + GoDuration.format(waitMax));
        }
        if (maxBodyMb < 0) {
            throw new ConfigException("-retry-max-body-mb must be >= 0, got " + maxBodyMb);
        }
        DurationFlags.positive("-retry-deadline", deadline);
        DurationFlags.positive("-upstream-timeout", upstreamTimeout);
        SortedSet<Integer> statuses = new TreeSet<>();
        for (Integer status : Objects.requireNonNull(retryStatus, "retryStatus")) {
            if (status == null || status < 100 || status > 599) {
                throw new ConfigException("-retry-status must list HTTP statuses 100-599, got " + status);
            }
            statuses.add(status);
        }
        retryStatus = Collections.unmodifiableSortedSet(statuses);
    }

    /** A builder starting from the defaults, for the CLI and for tests. */
    public static Builder builder() {
        return new Builder();
    }

    /** True when failed attempts may be retried at all ({@code -retry} is not 0). */
    public boolean enabled() {
        return retry != 0;
    }

    /** The largest request body, in bytes, that is buffered so it can be replayed. */
    public long maxBodyBytes() {
        return (long) maxBodyMb * 1024 * 1024;
    }

    /**
     * Parses the {@code -retry-status} value: comma-separated statuses such as {@code 422,429}; blanks
     * around entries are ignored, an empty value means no body-matched status.
     */
    public static Set<Integer> parseStatusList(String text) {
        SortedSet<Integer> statuses = new TreeSet<>();
        if (text == null || text.isBlank()) {
            return statuses;
        }
        for (String part : text.split(",", -1)) {
            String s = part.trim();
            int status;
            try {
                status = Integer.parseInt(s);
            } catch (NumberFormatException e) {
                throw new ConfigException("-retry-status: invalid status \"" + s + "\" (expected: comma-separated HTTP statuses such as 422,429)");
            }
            if (status < 100 || status > 599) {
                throw new ConfigException("-retry-status must list HTTP statuses 100-599, got " + status);
            }
            statuses.add(status);
        }
        return statuses;
    }

    /** Mutable builder; {@link #build()} validates. Not thread-safe. */
    public static final class Builder {
        private int retry = UNLIMITED;
        private Duration waitMin = Duration.ofMillis(500);
        private Duration waitMax = Duration.ofSeconds(30);
        private Duration minDelay = Duration.ofSeconds(1);
        private boolean skip429 = true;
        private int maxBodyMb = 5;
        private Set<Integer> retryStatus = Set.of(422, 429);
        private Duration deadline = Duration.ofMinutes(5);
        private Duration keepalive = Duration.ofSeconds(10);
        private Duration upstreamTimeout = Duration.ofMinutes(10);
        private boolean inspectSse = true;
        private boolean stripStaleReasoning = true;

        private Builder() {
        }

        private Builder(RetryConfig c) {
            retry = c.retry;
            waitMin = c.waitMin;
            waitMax = c.waitMax;
            minDelay = c.minDelay;
            skip429 = c.skip429;
            maxBodyMb = c.maxBodyMb;
            retryStatus = c.retryStatus;
            deadline = c.deadline;
            keepalive = c.keepalive;
            upstreamTimeout = c.upstreamTimeout;
            inspectSse = c.inspectSse;
            stripStaleReasoning = c.stripStaleReasoning;
        }

        public Builder retry(int v) { retry = v; return this; }
        public Builder waitMin(Duration v) { waitMin = v; return this; }
        public Builder waitMax(Duration v) { waitMax = v; return this; }
        public Builder minDelay(Duration v) { minDelay = v; return this; }
        public Builder skip429(boolean v) { skip429 = v; return this; }
        public Builder maxBodyMb(int v) { maxBodyMb = v; return this; }
        public Builder retryStatus(Set<Integer> v) { retryStatus = v; return this; }
        public Builder deadline(Duration v) { deadline = v; return this; }
        public Builder keepalive(Duration v) { keepalive = v; return this; }
        public Builder upstreamTimeout(Duration v) { upstreamTimeout = v; return this; }
        public Builder inspectSse(boolean v) { inspectSse = v; return this; }
        public Builder stripStaleReasoning(boolean v) { stripStaleReasoning = v; return this; }

        public RetryConfig build() {
            return new RetryConfig(retry, waitMin, waitMax, minDelay, skip429, maxBodyMb, retryStatus,
                    deadline, keepalive, upstreamTimeout, inspectSse, stripStaleReasoning);
        }
    }
}
