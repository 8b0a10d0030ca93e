package shaper.observe;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import shaper.idle.Ticker;

/**
 * One line per exchange on stdout, in logfmt: time, provider, method, path (never the query string,
 * which may carry keys), status (0 when none was committed), duration, queue wait, the priority class
 * and the client when there are such, upstream attempts, the end reason when it is not a plain completion, and outcome (always last).
 * Other lines (startup, retry decisions, breaker transitions, transport errors) go the same way.
 *
 * <p>While a consumer is set with {@link #divertTo} (the TUI's Logs tab), lines go to it instead
 * of stdout; the {@code -log-file} mirror keeps receiving them. The consumer is shared by every
 * log made with {@link #mirroredTo} from the same base, and it is called on the writer thread.
 *
 * <p>Request threads only append an entry to a lock-free queue; one writer thread formats, prints
 * in order and flushes once it has caught up, waking every few milliseconds. A busy proxy thus pays
 * neither a write system call, a lock, a thread wake-up nor the formatting per request; a line
 * reaches stdout within {@link #PERIOD}. After {@link #IDLE_ROUNDS} empty looks the writer sleeps
 * until the next line wakes it ({@link Ticker}): an idle proxy does not tick.
 * {@link #close()} drains what is queued.
 */
public final class ExchangeLog implements AutoCloseable {
    static final Duration PERIOD = Duration.ofMillis(5);
    /** Empty looks in a row (100 ms) before the writer sleeps until a line comes. */
    static final int IDLE_ROUNDS = 20;
    private final Ticker ticker = new Ticker(PERIOD, IDLE_ROUNDS);
    /** Producers wait (a millisecond at a time) while this many lines are queued, so memory stays bounded. */
    private static final int BACKLOG_LIMIT = 100_000;

    private sealed interface Entry {
        Instant time();
    }

    private record Line(Instant time, String text) implements Entry {
    }

    private record ExchangeEntry(Instant time, ExchangeRecord record) implements Entry {
    }

    private final PrintStream out;
    /** Where stdout's lines go instead while set; shared with the logs {@link #mirroredTo} made. */
    private final AtomicReference<Consumer<String>> diverted;
    private final PrintStream mirror;
    private final PrintStream err;
    private final ConcurrentLinkedQueue<Entry> entries = new ConcurrentLinkedQueue<>();
    private final AtomicInteger backlog = new AtomicInteger();
    private final Thread writer;
    private volatile boolean closing;
    private volatile boolean mirrorFailed;

    public ExchangeLog(PrintStream out) {
        this(out, new AtomicReference<>(), null, null);
    }

    private ExchangeLog(PrintStream out, AtomicReference<Consumer<String>> diverted, PrintStream mirror, PrintStream err) {
        this.out = out;
        this.diverted = diverted;
        this.mirror = mirror;
        this.err = err;
        this.writer = Thread.ofPlatform().daemon().name("shaper-log").start(this::drain);
    }

    /**
     * A log writing to the same output and also appending to {@code file} ({@code -log-file}). A file
     * that cannot be opened or written is reported once on {@code err}; logging to stdout goes on.
     */
    public ExchangeLog mirroredTo(Path file, PrintStream err) {
        PrintStream m = null;
        try {
            m = new PrintStream(new FileOutputStream(file.toFile(), true), false, StandardCharsets.UTF_8);
        } catch (IOException e) {
            err.println("WARNING: -log-file " + file + ": " + e.getMessage() + " (logging to stdout only)");
        }
        return new ExchangeLog(out, diverted, m, err);
    }

    /** The exchange's line; called by {@link ExchangePublisher} once per record. */
    public void exchange(ExchangeRecord record) {
        enqueue(new ExchangeEntry(Instant.now(), record));
    }

    /**
     * Sends the lines meant for stdout to {@code consumer} (on the writer thread) until
     * {@link #restore()}; null restores too. The {@code -log-file} mirror is unaffected.
     */
    public void divertTo(Consumer<String> consumer) {
        diverted.set(consumer);
    }

    /** Lines go to stdout again. */
    public void restore() {
        diverted.set(null);
    }

    public void info(String message) {
        enqueue(new Line(Instant.now(), message));
    }

    private void enqueue(Entry entry) {
        while (backlog.get() > BACKLOG_LIMIT && !closing) {
            LockSupport.parkNanos(1_000_000);
        }
        entries.offer(entry);
        backlog.incrementAndGet();
        ticker.wake();
    }

    private void drain() {
        StringBuilder sb = new StringBuilder(256);
        while (true) {
            boolean wrote = false;
            Entry e;
            while ((e = entries.poll()) != null) {
                backlog.decrementAndGet();
                sb.setLength(0);
                format(e, sb);
                String line = sb.toString();
                Consumer<String> consumer = diverted.get();
                if (consumer != null) {
                    deliver(consumer, line);
                } else {
                    out.println(line);
                }
                if (mirror != null) {
                    mirror.println(line);
                }
                wrote = true;
            }
            if (wrote) {
                out.flush();
                flushMirror();
            }
            if (closing && entries.isEmpty()) {
                return;
            }
            ticker.pause(wrote, () -> entries.isEmpty() && !closing);
        }
    }

    private static void format(Entry entry, StringBuilder sb) {
        sb.append(entry.time()).append(' ');
        switch (entry) {
            case Line l -> sb.append(l.text());
            case ExchangeEntry x -> {
                ExchangeRecord r = x.record();
                sb.append("exchange provider=").append(r.provider())
                        .append(" method=").append(r.method())
                        .append(" path=").append(quote(r.path()))
                        .append(" status=").append(r.status())
                        .append(" duration=");
                millis(sb, r.timings().duration().toNanos());
                sb.append(" queue_wait=");
                millis(sb, r.timings().queueWait().toNanos());
                if (!r.priorityClass().isEmpty()) {
                    sb.append(" class=").append(r.priorityClass());
                }
                if (!r.client().equals("anonymous")) {
                    // an identity is 1..128 visible ASCII characters, but may hold a quote or a backslash
                    sb.append(" client=").append(quote(r.client()));
                }
                sb.append(" attempts=").append(r.attempts());
                if (!r.transport().equals("http")) {
                    sb.append(" transport=").append(r.transport());
                }
                if (r.routing().routed()) {
                    r.routing().appendTo(sb);
                }
                if (r.usage().source() != shaper.usage.TokenUsage.Source.NONE) {
                    // in = every input token (uncached, cache reads and writes); ~ marks an estimate
                    String mark = r.usage().estimated() ? "~" : "";
                    sb.append(" in=").append(mark).append(r.usage().allInput()).append(" out=").append(mark).append(r.usage().output());
                }
                if (r.reason() != EndReason.COMPLETED) {
                    sb.append(" reason=").append(r.reason().label());
                }
                sb.append(" outcome=").append(r.outcome().label());
            }
        }
    }

    /** {@code 12.3ms}: tenths of a millisecond, truncated. */
    private static void millis(StringBuilder sb, long nanos) {
        long tenthsOfMs = nanos / 100_000;
        sb.append(tenthsOfMs / 10).append('.').append(tenthsOfMs % 10).append("ms");
    }

    private static void deliver(Consumer<String> consumer, String line) {
        try {
            consumer.accept(line);
        } catch (RuntimeException e) {
            // a failing consumer must never stop the log; the line is lost to it
        }
    }

    private void flushMirror() {
        if (mirror != null) {
            mirror.flush();
            if (mirror.checkError() && !mirrorFailed) {
                mirrorFailed = true;
                err.println("WARNING: -log-file: write failed (logging to stdout goes on)");
            }
        }
    }

    /** Writes everything queued so far, then stops the writer. */
    @Override
    public void close() {
        closing = true;
        LockSupport.unpark(writer);
        try {
            writer.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (mirror != null) {
            mirror.close();
        }
    }

    static String quote(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c <= ' ' || c == '"' || c == '\\' || c >= 0x7f) {
                return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
            }
        }
        return value;
    }
}
