package shaper.observe;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
    private final PrintStream mirror;
    private final PrintStream err;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>(65_536);
    private final Thread writer;
    private volatile boolean mirrorFailed;

    public ExchangeLog(PrintStream out) {
        this(out, null, null);
    }

    private ExchangeLog(PrintStream out, PrintStream mirror, PrintStream err) {
        this.out = out;
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
        return new ExchangeLog(out, m, err);
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
                        flushMirror();
                        return;
                    }
                    out.println(line);
                    if (mirror != null) {
                        mirror.println(line);
                    }
                }
                batch.clear();
                if (lines.isEmpty()) {
                    out.flush();
                    flushMirror();
                }
            }
        } catch (InterruptedException e) {
            out.flush();
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
