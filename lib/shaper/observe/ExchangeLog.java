package shaper.observe;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One line per exchange on stdout, in logfmt: time, provider, method, path (never the query string,
 * which may carry keys), status (0 when none was committed), duration and outcome.
 *
 * <p>Request threads only enqueue; one writer thread prints in order and flushes when it has caught
 * up, so a busy proxy pays neither a write system call nor a lock per request. {@link #close()}
 * drains what is queued.
 */
public final class ExchangeLog implements AutoCloseable {
    private static final String STOP = new String("stop");

    private final PrintStream out;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>(65_536);
    private final Thread writer;

    public ExchangeLog(PrintStream out) {
        this.out = out;
        this.writer = Thread.ofPlatform().daemon().name("shaper-log").start(this::drain);
    }

    public void exchange(String provider, String method, String path, int status, long nanos, Outcome outcome) {
        StringBuilder sb = new StringBuilder(160);
        sb.append(Instant.now()).append(" exchange provider=").append(provider)
                .append(" method=").append(method)
                .append(" path=").append(quote(path))
                .append(" status=").append(status)
                .append(" duration=");
        long tenthsOfMs = nanos / 100_000;
        sb.append(tenthsOfMs / 10).append('.').append(tenthsOfMs % 10).append("ms outcome=").append(outcome.label());
        enqueue(sb.toString());
    }

    public void info(String message) {
        enqueue(Instant.now() + " " + message);
    }

    private void enqueue(String line) {
        try {
            lines.put(line);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void drain() {
        List<String> batch = new ArrayList<>(256);
        try {
            while (true) {
                batch.add(lines.take());
                lines.drainTo(batch, 1023);
                for (String line : batch) {
                    if (line == STOP) {
                        out.flush();
                        return;
                    }
                    out.println(line);
                }
                batch.clear();
                if (lines.isEmpty()) {
                    out.flush();
                }
            }
        } catch (InterruptedException e) {
            out.flush();
        }
    }

    /** Writes everything queued so far, then stops the writer. */
    @Override
    public void close() {
        enqueue(STOP);
        try {
            writer.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String quote(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c <= ' ' || c == '"' || c == '\\' || c >= 0x7f) {
                return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
            }
        }
        return value;
    }
}
