package shaper.limit;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The waiters of one limiter (its {@link Waiter}s, or a token budget's tickets): one lane per
 * {@link QueueClass}, and inside a lane one FIFO line per {@link QueueClient}, both levels served by
 * stride scheduling (a deterministic form of weighted fair queueing). Not thread-safe: guarded by the
 * owning limiter's lock.
 *
 * <p>Each lane and each line has a <i>pass</i>; a returning slot goes to the non-empty lane with the
 * smallest pass (ties: the heavier class, then the older head), inside it to the line with the
 * smallest pass (ties alike), and to that line's oldest waiter; the lane's and the line's passes
 * grow by {@code STRIDE / weight}. So while several classes wait each is served in proportion to its
 * weight, and inside a class so is each client: a client with 32 waiters and one with a single
 * waiter alternate, however many the first adds (no starvation). Something that was empty re-enters
 * at its level's current virtual time (the pass of the last one served): idle time banks no credit.
 * With one class and one client this is exactly a FIFO; a client alone gets every slot.
 *
 * <p>An empty line is dropped, so memory follows the waiters, not the clients ever seen.
 * Picking is O(classes + clients waiting in the chosen class).
 *
 * <p>A limiter that caps a client's slots passes an eligibility test to {@link #peek(Predicate)} and
 * {@link #poll(Predicate)}: the lines of clients at their cap are passed over (they keep their place
 * and their pass), so a capped client's further requests wait without blocking anyone else.
 *
 * <p>Overflow picks its victim by weight, then by load: in the lightest lane lighter than the
 * arrival's, else in the arrival's own lane, the newest waiter of the client with the most waiters
 * per unit of weight (the arrival counted); the arrival itself when its own client is that heaviest.
 */
public final class FairQueue<T extends Queued> {
    private static final Predicate<QueueClient> ANY = c -> true;

    private final Map<QueueClass, Lane<T>> lanes = new LinkedHashMap<>();
    private long virtualTime;
    private long arrivals;
    private int size;

    public int size() {
        return size;
    }

    /** Appends {@code w} to its client's line in its class's lane. */
    public void add(T w) {
        Lane<T> lane = lanes.computeIfAbsent(w.cls, Lane::new);
        if (lane.size == 0) {
            lane.pass = Math.max(lane.pass, virtualTime);
        }
        w.arrival = arrivals++;
        lane.add(w);
        size++;
    }

    /** Unlinks {@code w}, which must be queued here. */
    public void remove(T w) {
        lanes.get(w.cls).remove(w);
        size--;
    }

    /** The waiter whose turn it is, left queued, or {@code null} when none waits. */
    public T peek() {
        return peek(ANY);
    }

    /** The waiter whose turn it is among clients that pass {@code eligible}, left queued, or {@code null}. */
    public T peek(Predicate<QueueClient> eligible) {
        Lane<T> lane = nextLane(eligible);
        return lane == null ? null : lane.nextLine(eligible).fifo.first();
    }

    /** Removes and returns the waiter whose turn it is ({@link #peek}), or {@code null} when none waits. */
    public T poll() {
        return poll(ANY);
    }

    /** Removes and returns the waiter {@link #peek(Predicate)} names, or {@code null}. */
    public T poll(Predicate<QueueClient> eligible) {
        Lane<T> lane = nextLane(eligible);
        if (lane == null) {
            return null;
        }
        virtualTime = lane.pass;
        lane.served();
        size--;
        return lane.poll(eligible);
    }

    private Lane<T> nextLane(Predicate<QueueClient> eligible) {
        Lane<T> next = null;
        for (Lane<T> lane : lanes.values()) {
            if (lane.size > 0 && (next == null || lane.before(next)) && (eligible == ANY || lane.nextLine(eligible) != null)) {
                next = lane;
            }
        }
        return next;
    }

    /** Makes a refusal: how many wait (of the client, or in all) and the bound they reached. */
    @FunctionalInterface
    public interface Refusal {
        QueueFullException full(int queued, int bound);
    }

    /**
     * Whom an arrival of {@code cls} and {@code client} displaces, when it may queue only so: its
     * client already has its {@code queueDepth} waiters here (the arrival is refused), or the queue
     * holds {@code maxDepth} (0: unbounded) and {@link #victimFor(QueueClass, QueueClient)} names
     * the waiter to refuse instead of the arrival. The victim is left queued for the caller to
     * unlink and refuse; {@code null} when nobody has to go.
     *
     * @throws QueueFullException made by {@code refusal}, when the arrival itself is refused
     */
    public T displacedBy(int maxDepth, QueueClass cls, QueueClient client, Refusal refusal) throws QueueFullException {
        if (client.queueDepth() > 0) {
            int own = queuedOf(client);
            if (own >= client.queueDepth()) {
                throw refusal.full(own, client.queueDepth());
            }
        }
        if (maxDepth == 0 || size < maxDepth) {
            return null;
        }
        T victim = victimFor(cls, client);
        if (victim == null) {
            throw refusal.full(size, maxDepth);
        }
        return victim;
    }

    /** {@link #victimFor(QueueClass, QueueClient)} for an anonymous arrival. */
    public T victimFor(QueueClass arriving) {
        return victimFor(arriving, QueueClient.ANONYMOUS);
    }

    /**
     * The waiter to refuse so that an arrival of class {@code arriving} and client {@code client} can
     * queue in a full queue, or {@code null} when the arrival itself is the one refused. A lighter
     * class pays first: in the lightest lane lighter than the arrival's, the newest waiter of its
     * heaviest client. Otherwise, in the arrival's own lane, the newest waiter of the client with
     * strictly more waiters per unit of weight than the arrival's client has, counting the arrival.
     */
    public T victimFor(QueueClass arriving, QueueClient client) {
        Lane<T> lightest = null;
        for (Lane<T> lane : lanes.values()) {
            if (lane.size > 0 && lane.cls.weight() < arriving.weight() && (lightest == null
                    || lane.cls.weight() < lightest.cls.weight()
                    || (lane.cls.weight() == lightest.cls.weight() && lane.heaviest(null).fifo.last().arrival
                            > lightest.heaviest(null).fifo.last().arrival))) {
                lightest = lane;
            }
        }
        if (lightest != null) {
            return lightest.heaviest(null).fifo.last();
        }
        Lane<T> own = lanes.get(arriving);
        ClientLine<T> heaviest = own == null ? null : own.heaviest(client);
        return heaviest == null ? null : heaviest.fifo.last();
    }

    /** How many waiters {@code client} has in every class of this queue. */
    public int queuedOf(QueueClient client) {
        int n = 0;
        for (Lane<T> lane : lanes.values()) {
            ClientLine<T> line = lane.lines.get(client.name());
            n += line == null ? 0 : line.fifo.size();
        }
        return n;
    }

    /** The longest-waiting waiter of any class and client, or {@code null}. */
    public T oldest() {
        T oldest = null;
        for (Lane<T> lane : lanes.values()) {
            for (ClientLine<T> line : lane.lines.values()) {
                T head = line.fifo.first();
                if (oldest == null || head.arrival < oldest.arrival) {
                    oldest = head;
                }
            }
        }
        return oldest;
    }

    /** Waiters per class name, for every class this limiter has seen, in first-seen order. */
    public Map<String, Integer> queuedByClass() {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Lane<T> lane : lanes.values()) {
            out.merge(lane.cls.name(), lane.size, Integer::sum);
        }
        return out;
    }

    /** Waiters per client name, for the clients waiting now. */
    public Map<String, Integer> queuedByClient() {
        Map<String, Integer> out = new HashMap<>();
        for (Lane<T> lane : lanes.values()) {
            for (ClientLine<T> line : lane.lines.values()) {
                out.merge(line.client.name(), line.fifo.size(), Integer::sum);
            }
        }
        return out;
    }

    /** One class's waiters, a line per client. */
    private static final class Lane<T extends Queued> extends StrideTurn {
        final QueueClass cls;
        final Map<String, ClientLine<T>> lines = new HashMap<>();
        long virtualTime;
        int size;

        Lane(QueueClass cls) {
            super(cls.weight());
            this.cls = cls;
        }

        @Override
        long headArrival() {
            long oldest = Long.MAX_VALUE;
            for (ClientLine<T> line : lines.values()) {
                oldest = Math.min(oldest, line.headArrival());
            }
            return oldest;
        }

        void add(T w) {
            ClientLine<T> line = lines.get(w.client.name());
            if (line == null) {
                line = new ClientLine<>(w.client);
                line.pass = virtualTime;
                lines.put(w.client.name(), line);
            }
            line.policy(w.client);
            line.fifo.addLast(w);
            size++;
        }

        void remove(T w) {
            ClientLine<T> line = lines.get(w.client.name());
            line.fifo.remove(w);
            size--;
            if (line.fifo.size() == 0) {
                lines.remove(w.client.name());
            }
        }

        ClientLine<T> nextLine(Predicate<QueueClient> eligible) {
            ClientLine<T> next = null;
            for (ClientLine<T> line : lines.values()) {
                if ((next == null || line.before(next)) && eligible.test(line.client)) {
                    next = line;
                }
            }
            return next;
        }

        T poll(Predicate<QueueClient> eligible) {
            ClientLine<T> line = nextLine(eligible);
            virtualTime = line.pass;
            line.served();
            T w = line.fifo.first();
            remove(w);
            return w;
        }

        /**
         * The line with the most waiters per unit of weight (ties: the newest last waiter). With
         * {@code arriving} given, only a line strictly heavier than that client's with the arrival
         * counted, else {@code null}.
         */
        ClientLine<T> heaviest(QueueClient arriving) {
            ClientLine<T> heaviest = null;
            if (arriving != null) {
                ClientLine<T> own = lines.get(arriving.name());
                long n = (own == null ? 0 : own.fifo.size()) + 1L;
                for (ClientLine<T> line : lines.values()) {
                    if (line != own && line.heavierThan(n, arriving.weight()) && (heaviest == null || heavier(line, heaviest))) {
                        heaviest = line;
                    }
                }
                return heaviest;
            }
            for (ClientLine<T> line : lines.values()) {
                if (heaviest == null || heavier(line, heaviest)) {
                    heaviest = line;
                }
            }
            return heaviest;
        }

        private static boolean heavier(ClientLine<?> a, ClientLine<?> b) {
            if (a.heavierThan(b.fifo.size(), b.client.weight())) {
                return true;
            }
            return !b.heavierThan(a.fifo.size(), a.client.weight()) && a.fifo.last().arrival > b.fifo.last().arrival;
        }
    }
}
