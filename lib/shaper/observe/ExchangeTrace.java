package shaper.observe;

import java.time.Instant;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The live side of one exchange: the stage stamps taken as it happens, readable by other threads
 * (the TUI's in-flight views) while the handler thread writes them. The handler ends it exactly
 * once with {@link #finish}, which turns the stamps into the immutable {@link ExchangeRecord} and
 * takes the exchange off its journal's in-flight list.
 *
 * <p>Threads: stamps are written by the exchange's own handler thread only; fields are volatile so
 * that a snapshot taken on another thread sees a consistent-enough recent state (each field on its
 * own; an in-flight view may lag a stage by one read).
 */
public final class ExchangeTrace {
    // a request of the routed mount moves to the journal of the provider that serves it (handler thread only)
    private volatile Journal journal;
    private volatile long id;
    private volatile String provider;
    private volatile RouteTrail routing = RouteTrail.NONE;
    private final String method;
    private final String path;
    private final String query;
    private final Instant arrivedAt;
    private final long arrivedNanos;
    private final LongSupplier nanoTime;

    private volatile RouteKind route = RouteKind.PASSTHROUGH;
    private volatile String routeKey = "";
    private volatile boolean waiting = true;
    private volatile long queueEnd = Timings.UNSET;
    private volatile long upstreamSent = Timings.UNSET;
    private volatile String priorityClass = "";
    private volatile String transport = "http";
    private volatile String client = "anonymous";
    private volatile long upstreamHeaders = Timings.UNSET;
    private volatile long firstByte = Timings.UNSET;
    private final RetryState retries = new RetryState();
    /** What the exchange waits for while queued, asked when a view is taken; null = a slot. */
    private volatile java.util.function.Supplier<String> waitingFor;
    private volatile List<Header> upstreamRequestHeaders = List.of();
    private BodyPreview requestBody = BodyPreview.NONE;
    private BodyPreview responseBody = BodyPreview.NONE;
    private long responseBytes = -1;
    private shaper.usage.TokenUsage usage = shaper.usage.TokenUsage.NONE;
    /** Reads the relayed answer's usage; set by the relay, finished by the handler. Handler thread only. */
    private shaper.usage.UsageScanner usageScanner;
    private boolean finished;
    /** The exchange's spans; {@link ExchangeSpans#NONE} while tracing is off. */
    private volatile ExchangeSpans spans = ExchangeSpans.NONE;

    /** A trace in flight in {@code journal} (null: detached) as its exchange number {@code id}. */
    ExchangeTrace(Journal journal, long id, String provider, TraceArrival arrival, TraceArrival.Clock clock) {
        this.journal = journal;
        this.id = id;
        this.provider = provider;
        this.method = arrival.method();
        this.path = arrival.path();
        this.query = arrival.query() == null ? "" : arrival.query();
        this.arrivedAt = clock.wall().instant();
        this.nanoTime = clock.nanoTime();
        this.arrivedNanos = nanoTime.getAsLong();
    }

    private long now() {
        return nanoTime.getAsLong() - arrivedNanos;
    }

    /** How the call came, when not over HTTP: {@code ws} for a turn of a Responses WebSocket session. */
    public void transport(String name) {
        this.transport = java.util.Objects.requireNonNull(name, "name");
    }

    /** Reports the stages to {@code tracing}'s spans from now on; set once, at arrival. */
    public void spans(ExchangeSpans tracing) {
        this.spans = java.util.Objects.requireNonNull(tracing, "tracing");
    }

    /** The priority class the request queued in (only when classes are declared). */
    public void priorityClass(String name) {
        this.priorityClass = name == null ? "" : name;
    }

    /** Who asks: the exchange's client identity. */
    public void client(String name) {
        this.client = java.util.Objects.requireNonNull(name, "name");
    }

    /**
     * The last attempt's time from its start to its response head, -1 when no head arrived: the
     * upstream's time to first byte, queue wait and earlier attempts excluded.
     */
    public long upstreamFirstByteNanos() {
        long sent = retries.lastSent();
        long head = upstreamHeaders;
        return sent < 0 || head < sent ? -1 : head - sent;
    }

    /** The limiters' verdict on the request. */
    public void classified(RouteKind kind, String key) {
        this.route = kind;
        this.routeKey = key == null ? "" : key;
    }

    /**
     * Admission ended (admitted or refused); the exchange is no longer queued.
     *
     * @param hadLimiters the request asked limiters for slots; only then is {@code queueEnd} stamped,
     *                    so exchanges that never could wait add no queue-wait sample
     */
    public void queueEnded(boolean hadLimiters) {
        if (waiting) {
            if (hadLimiters) {
                queueEnd = now();
            }
            waiting = false;
            spans.queueEnded();
        }
    }

    /** A limiter queued the exchange at {@code position} (1 = next in line). */
    public void queued(String limiter, int position) {
        spans.queued(limiter, position, priorityClass, client);
    }

    /**
     * An upstream attempt starts; the first one stamps {@code upstreamSent}.
     *
     * @return the trace header fields the attempt sends in place of the client's; empty (tracing off) to pass the client's through
     */
    public List<Header> attemptStarted() {
        long now = now();
        if (upstreamSent < 0) {
            upstreamSent = now;
        }
        return spans.attemptStarted(retries.started(now));
    }

    /**
     * The request headers an attempt sent upstream, an injected credential's value already hidden;
     * the last attempt's stay. The journal shows them beside the client's.
     */
    public void upstreamRequest(List<Header> headers) {
        upstreamRequestHeaders = List.copyOf(headers);
    }

    /** An attempt's response headers arrived with {@code status}; the last attempt's stamp stays. */
    public void upstreamHeaders(int status) {
        upstreamHeaders = now();
        spans.attemptAnswered(status);
    }

    /**
     * The exchange waits out a retry backoff of {@code delay} before attempt {@code nextAttempt};
     * {@code why} is the retry reason in words, {@code reason} its name for the spans.
     */
    public void backingOff(int nextAttempt, java.time.Duration delay, String why, String reason) {
        retries.backingOff(now(), nextAttempt, delay, why);
        spans.retrying(reason, delay);
    }

    /** Runs a dialect conversion ({@code request} or {@code response} phase), its time reported to the spans. */
    public <T> T transcoding(String phase, java.util.function.Supplier<T> conversion) {
        spans.transcoding(phase);
        try {
            return conversion.get();
        } finally {
            spans.transcoded();
        }
    }

    /** The client's response headers are being committed; only the first call counts. */
    public void clientHeaders() {
        if (firstByte < 0) {
            firstByte = now();
        }
    }

    public void requestBody(BodyPreview preview) {
        this.requestBody = preview;
    }

    public void responseBody(BodyPreview preview) {
        this.responseBody = preview;
    }

    public void responseBytes(long bytes) {
        this.responseBytes = bytes;
    }

    /**
     * While queued, what the exchange waits for ({@code waiting for tokens (input)}); null goes back to
     * a slot. Any thread; the supplier is asked on the thread taking a view.
     */
    public void waitingFor(java.util.function.Supplier<String> what) {
        this.waitingFor = what;
    }

    /** The scanner reading the answer being relayed (the last attempt's: an earlier one was discarded). */
    public void usageScanner(shaper.usage.UsageScanner scanner) {
        this.usageScanner = scanner;
    }

    /** The scanner of the relayed answer, or null when no answer was relayed. */
    public shaper.usage.UsageScanner usageScanner() {
        return usageScanner;
    }

    /** The tokens the exchange used, once known (before {@link #finish}). */
    public void usage(shaper.usage.TokenUsage used) {
        this.usage = java.util.Objects.requireNonNull(used, "used");
    }

    public long id() {
        return id;
    }

    /** The request matched {@code route}; {@code target} serves it first. */
    public void routed(String route, String target) {
        routing = new RouteTrail(route, target, java.util.List.of());
    }

    /** The request leaves its target for {@code to}, because of {@code why}. */
    public void movedTo(String to, String why) {
        routing = routing.movedTo(to, why);
    }

    /**
     * The exchange is served by the provider of {@code next} from now on: it leaves its journal's
     * in-flight list for that one's, under a number of that journal, so the provider that serves it
     * is the one that shows, counts and records it.
     */
    public void servedBy(Journal next) {
        if (next == journal || journal == null) {
            return;
        }
        journal.left(this);
        journal = next;
        provider = next.provider();
        id = next.adopt(this);
    }

    int attempts() {
        return retries.attempts();
    }

    /** The view the TUI reads; {@code nowNanos} from the same clock as the stamps. */
    InFlight view(long nowNanos) {
        int n = retries.attempts();
        java.util.function.Supplier<String> what = waitingFor;
        String wait = !waiting ? "" : what == null ? InFlight.SLOT : what.get();
        return new InFlight(id, method, path, route, routeKey, waiting ? InFlight.State.QUEUED : InFlight.State.ACTIVE, arrivedAt,
                java.time.Duration.ofNanos(Math.max(0, nowNanos - arrivedNanos)), n, retries.retrying(), wait == null ? InFlight.SLOT : wait,
                priorityClass, client, retries.waitAt(nowNanos - arrivedNanos));
    }

    boolean retrying() {
        return retries.retrying();
    }

    boolean queued() {
        return waiting;
    }

    /**
     * Ends the exchange: stamps the end (and the last byte when it completed), builds the record and
     * leaves the in-flight list. Call once; the record is then handed to {@link ExchangePublisher}.
     */
    public ExchangeRecord finish(ExchangeEnding ending, List<Header> requestHeaders, List<Header> responseHeaders) {
        int status = ending.status();
        Outcome outcome = ending.outcome();
        EndReason reason = ending.reason();
        Provenance provenance = ending.provenance();
        if (finished) {
            throw new IllegalStateException("exchange " + id + " finished twice");
        }
        finished = true;
        long end = Math.max(0, now());
        boolean complete = outcome != Outcome.ABORTED;
        long first = firstByte;
        if (complete && first < 0 && status > 0) {
            first = end;
        }
        Timings t = new Timings(arrivedAt, queueEnd, upstreamSent, upstreamHeaders, first, complete && status > 0 ? end : Timings.UNSET, end);
        if (journal != null) {
            journal.left(this);
        }
        ExchangeRecord record = new ExchangeRecord(id, provider, route, routeKey, method, path, query, status, outcome, reason,
                provenance != null ? provenance : reason.provenance(), retries.attempts(), t, requestHeaders, upstreamRequestHeaders, responseHeaders,
                requestBody, responseBody, responseBytes, usage, priorityClass, transport, routing, client);
        spans.finishedQuietly(record, usageScanner);
        return record;
    }
}
