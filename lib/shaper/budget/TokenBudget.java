package shaper.budget;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

import shaper.limit.QueueFullException;
import shaper.limit.Ticket;
import shaper.limit.TimeSource;
import shaper.ratelimit.RateLimitHeaders;
import shaper.ratelimit.RateLimitKind;
import shaper.usage.TokenUsage;

/**
 * One provider's token budgets and the FIFO of requests waiting for them.
 *
 * <pre>
 * enqueue(cost) ──queue empty, not held, every bucket fits──▶ granted: cost taken from each bucket
 *      │ else
 *      ▼
 *  queued (FIFO: the head decides, nobody overtakes) ──head fits──▶ granted; the next head is tried
 *      │ the head does not fit: a timer wakes the queue when the longest missing refill is done
 *      ▼
 *  exchange ends ──settle(actual usage)──▶ each bucket gets back (or pays) actual − estimate
 * </pre>
 *
 * Invariant: a queued ticket is granted only when it is the head and every bucket fits its cost
 * (a cost larger than a whole bucket fits a full bucket). With {@code -budget-from-headers} each
 * response's headers restate the buckets' limits and cap their levels at what remains (a kind the
 * headers announce becomes a budget; see {@link TokenBucket#restate} for why a level is never
 * raised by a header), and a {@code 429}/{@code 529}
 * {@code retry-after} holds the whole queue until then. Everything below is guarded by {@link #lock},
 * held for O(buckets) bookkeeping only; tickets park on their own conditions; time comes from the
 * injected {@link TimeSource}. The buckets and the hold live in {@link BudgetBuckets}.
 */
public final class TokenBudget {
    /** The label of waits caused by a {@code retry-after} hold rather than a bucket. */
    public static final String HOLD = "retry_after";

    private final String name;
    private final boolean fromHeaders;
    final TimeSource time;
    final ReentrantLock lock = new ReentrantLock();
    private final CostEstimator estimator = new CostEstimator();
    private final Map<String, LongAdder> waits = new ConcurrentHashMap<>();

    // Guarded by lock.
    private final BudgetBuckets buckets;
    private final ArrayDeque<BudgetTicket> queue = new ArrayDeque<>();
    private TimeSource.Cancellable timer;

    public TokenBudget(String name, BudgetConfig config, TimeSource time) {
        this.name = Objects.requireNonNull(name, "name");
        this.time = Objects.requireNonNull(time, "time");
        this.fromHeaders = config.fromHeaders();
        this.buckets = new BudgetBuckets(config, time.nanoTime());
    }

    public String name() {
        return name;
    }

    public CostEstimator estimator() {
        return estimator;
    }

    /**
     * Takes {@code cost} from every bucket now, or joins the end of the queue.
     *
     * @param maxDepth the most waiters allowed, counting this one; 0 = unbounded
     * @throws QueueFullException {@code maxDepth} waiters were already queued; nothing was queued or taken
     */
    public Ticket enqueue(Cost cost, int maxDepth) throws QueueFullException {
        lock.lock();
        try {
            long now = time.nanoTime();
            String blocker = buckets.blocker(cost, now);
            if (queue.isEmpty() && blocker == null) {
                buckets.take(cost, now);
                return new BudgetTicket(this, cost, true, null);
            }
            if (maxDepth > 0 && queue.size() >= maxDepth) {
                // the head gets its tokens first: room comes when its wait is over
                Cost head = queue.isEmpty() ? cost : queue.peekFirst().cost;
                long wait = buckets.wouldWait(head, now);
                throw new QueueFullException(name, queue.size(), maxDepth, Duration.ofNanos(wait));
            }
            String reason = blocker != null ? blocker : buckets.blocker(queue.peekFirst().cost, now);
            BudgetTicket t = new BudgetTicket(this, cost, false, reason == null ? RateLimitKind.TOKENS.word() : reason);
            waits.computeIfAbsent(t.waitingFor(), k -> new LongAdder()).increment();
            queue.addLast(t);
            pump();
            return t;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether a request costs nothing and never waits for tokens: {@code count_tokens}, any
     * {@code GET}/{@code HEAD} ({@code /v1/models}), and {@code :unlimited} routes.
     */
    public static boolean free(String method, String rawPath, boolean unlimited) {
        String p = rawPath.endsWith("/") ? rawPath.substring(0, rawPath.length() - 1) : rawPath;
        return unlimited || method.equalsIgnoreCase("GET") || method.equalsIgnoreCase("HEAD") || p.endsWith("/count_tokens");
    }

    /** One request's spending of this budget: its cost, the limiter view the admission chain waits on, and later its permit. */
    public Spend spend(Cost cost) {
        return new Spend(new BudgetLimiter(this, cost));
    }

    /** See {@link #spend}. Thread-safe. */
    public static final class Spend {
        private final BudgetLimiter view;

        private Spend(BudgetLimiter view) {
            this.view = view;
        }

        public Cost cost() {
            return view.cost();
        }

        /** The view to put in the request's admission chain. */
        public shaper.limit.Limiter limiter() {
            return view;
        }

        /** {@code waiting for tokens (input)} and so on while queued for tokens; null otherwise (then it waits for a slot). */
        public String waitingFor() {
            return view.waitingFor();
        }

        /** Settles the claimed permit with the actual usage; nothing when the request was never admitted. */
        public void settle(TokenUsage actual) {
            BudgetPermit p = view.permit();
            if (p != null) {
                p.settle(actual);
            }
        }
    }

    /** {@code cost}'s view of this budget as a limiter, for the admission chain's queue. */
    public shaper.limit.Limiter limiter(Cost cost) {
        return new BudgetLimiter(this, cost);
    }

    /**
     * What a request waits for in {@code limiter} (a view from {@link #limiter}): {@code waiting for
     * tokens (input)} and so on while its ticket is queued, else null. Any thread.
     */
    public static String describeWait(shaper.limit.Limiter limiter) {
        return limiter instanceof BudgetLimiter b ? b.waitingFor() : null;
    }

    /** The tokens of {@code cost} now when nobody waits and every bucket fits, else null. */
    BudgetPermit tryTake(Cost cost) {
        lock.lock();
        try {
            long now = time.nanoTime();
            if (!queue.isEmpty() || buckets.blocker(cost, now) != null) {
                return null;
            }
            buckets.take(cost, now);
            return new BudgetPermit(this, cost);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reconciles an exchange's estimate with what it actually used: each bucket gets the
     * difference back or pays it. Nothing reported (an error answer, a client gone before the
     * answer) returns every token of the estimate; the request itself stays counted.
     */
    public void settle(Cost estimate, TokenUsage actual) {
        estimator.learn(estimate, actual);
        lock.lock();
        try {
            buckets.settle(estimate, actual, time.nanoTime());
            pump();
        } finally {
            lock.unlock();
        }
    }

    /** With {@code -budget-from-headers}: what one response said; otherwise a no-op. */
    public void observe(RateLimitHeaders.Observation o, Instant wallNow) {
        if (!fromHeaders || o.empty()) {
            return;
        }
        lock.lock();
        try {
            buckets.restate(o, wallNow, time.nanoTime());
            pump();
        } finally {
            lock.unlock();
        }
    }

    /** How long a request of {@code cost} would wait behind nobody: the {@code Retry-After} of a full queue. */
    public Duration wouldWait(Cost cost) {
        lock.lock();
        try {
            return Duration.ofNanos(buckets.wouldWait(cost, time.nanoTime()));
        } finally {
            lock.unlock();
        }
    }

    /** Each bucket's level now (may be negative: a debt), by kind. */
    public Map<RateLimitKind, Double> levels() {
        lock.lock();
        try {
            return buckets.levels(time.nanoTime());
        } finally {
            lock.unlock();
        }
    }

    /** Requests that had to wait, by what they waited for (a kind's {@link RateLimitKind#label()}, or {@link #HOLD}). */
    public Map<String, Long> waits() {
        Map<String, Long> out = new LinkedHashMap<>();
        waits.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** What {@code ticket} waits for while queued ("input", "output", "tokens", "requests" or {@link #HOLD}); null for another limiter's ticket. */
    public static String waitingFor(Ticket ticket) {
        return ticket instanceof BudgetTicket b ? b.waitingFor() : null;
    }

    public int queued() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    // ---- transitions; callers hold the lock ----

    /** Grants heads while they fit; otherwise wakes the queue when the head's wait is over. */
    void pump() {
        long now = time.nanoTime();
        while (!queue.isEmpty()) {
            BudgetTicket head = queue.peekFirst();
            String blocker = buckets.blocker(head.cost, now);
            if (blocker != null) {
                head.waitFor(blocker);
                long wait = buckets.waitFor(blocker, head.cost, now);
                schedule(Math.max(1_000_000, wait));
                return;
            }
            queue.pollFirst();
            buckets.take(head.cost, now);
            head.granted();
        }
    }

    private void schedule(long nanos) {
        if (timer != null) {
            timer.cancel();
        }
        timer = time.schedule(Duration.ofNanos(nanos), this::pumpLocking);
    }

    private void pumpLocking() {
        lock.lock();
        try {
            timer = null;
            pump();
        } finally {
            lock.unlock();
        }
    }

    /** A queued ticket left (timeout, cancel, interrupt): the next one may now be the head. */
    void leave(BudgetTicket t) {
        boolean wasHead = queue.peekFirst() == t;
        queue.remove(t);
        if (wasHead) {
            pump();
        }
    }

    /** A granted ticket was cancelled before it was claimed: its cost goes back unused. */
    void returnUnused(Cost cost) {
        buckets.giveBack(cost, time.nanoTime());
        pump();
    }
}
