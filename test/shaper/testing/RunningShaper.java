package shaper.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import shaper.configfile.ConfigLoader;
import shaper.cli.Invocation;
import shaper.server.ShaperServer;

/**
 * The real proxy, started in this JVM from a command line exactly as {@code Shaper.java} would
 * parse it, on an ephemeral loopback port. Captures its stdout/stderr for assertions.
 */
public final class RunningShaper implements AutoCloseable {
    private final ShaperServer server;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private RunningShaper(List<String> argv) {
        this(argv, null, System::getenv);
    }

    private RunningShaper(List<String> argv, shaper.limit.TimeSource time) {
        this(argv, time, System::getenv);
    }

    /**
     * @param time the proxy's one clock, or null for the system clock
     * @param env  the environment the proxy sees
     */
    private RunningShaper(List<String> argv, shaper.limit.TimeSource time, java.util.function.Function<String, String> env) {
        List<String> args = new ArrayList<>(argv);
        if (!args.contains("-bind")) {
            // server scope: before any --provider section
            args.add(0, "127.0.0.1:0");
            args.add(0, "-bind");
        }
        Invocation inv = ConfigLoader.parse(args);
        if (!(inv instanceof Invocation.Run run)) {
            throw new IllegalArgumentException("not a run invocation: " + argv);
        }
        PrintStream o = new PrintStream(new TeeStream(out, System.out), true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(new TeeStream(err, System.err), true, StandardCharsets.UTF_8);
        this.server = time == null ? ShaperServer.start(run.config(), o, e, env) : ShaperServer.start(run.config(), o, e, env, time);
    }

    public static RunningShaper start(String... argv) {
        return new RunningShaper(List.of(argv));
    }

    /** The proxy on {@code time}: cooldowns, holds and breaker waits move when the test moves the clock. */
    public static RunningShaper start(shaper.limit.TimeSource time, String... argv) {
        return new RunningShaper(List.of(argv), time);
    }

    /** The proxy seeing {@code env} as its whole environment (proxy variables, secrets of {@code env:} sources). */
    public static RunningShaper withEnvironment(java.util.Map<String, String> env, String... argv) {
        return new RunningShaper(List.of(argv), null, env::get);
    }

    public ShaperServer server() {
        return server;
    }

    public int port() {
        return server.port();
    }

    public URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + port() + pathAndQuery);
    }

    public String stdout() {
        synchronized (out) {
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    public String stderr() {
        synchronized (err) {
            return err.toString(StandardCharsets.UTF_8);
        }
    }

    /** Lines of stdout containing {@code needle}. */
    public List<String> logLines(String needle) {
        return stdout().lines().filter(l -> l.contains(needle)).toList();
    }

    /** Waits (bounded) until the condition holds; fails the test otherwise. */
    public static void await(String what, Duration bound, BooleanSupplier condition) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + bound + " waiting for: " + what);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for: " + what);
            }
        }
    }

    @Override
    public void close() {
        server.stop();
    }

    /** Writes to a capture buffer and to the test's own output. */
    private static final class TeeStream extends java.io.OutputStream {
        private final ByteArrayOutputStream capture;
        private final PrintStream echo;

        TeeStream(ByteArrayOutputStream capture, PrintStream echo) {
            this.capture = capture;
            this.echo = echo;
        }

        @Override
        public void write(int b) {
            synchronized (capture) {
                capture.write(b);
            }
            if (Boolean.getBoolean("shaper.test.echo")) {
                echo.write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) {
            synchronized (capture) {
                capture.write(b, off, len);
            }
            if (Boolean.getBoolean("shaper.test.echo")) {
                echo.write(b, off, len);
            }
        }
    }
}
