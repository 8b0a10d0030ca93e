package shaper.cluster;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import shaper.ProjectRoot;
import shaper.testing.RunningShaper;
import shaper.testing.TestNet;

/**
 * A shaper in its own JVM, started as a user does ({@code ./jbang Shaper.java ...}) on a free
 * loopback port, so a test can SIGKILL it. Output goes to a temp file; stopped by its own PID.
 */
final class ShaperJvm implements AutoCloseable {
    private static final Duration START_BOUND = Duration.ofSeconds(180);
    private static boolean built; // guarded by ShaperJvm.class

    private final Process process;
    private final int port;
    private final Path log;

    private ShaperJvm(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /**
     * Compiles {@code Shaper.java} once, before processes start in parallel: concurrent first starts
     * would each compile it on a loaded machine.
     */
    static synchronized void ensureBuilt() throws IOException, InterruptedException {
        if (built) {
            return;
        }
        Process p = new ProcessBuilder(List.of("./jbang", "build", "Shaper.java")).directory(ProjectRoot.find().toFile())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(START_BOUND.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("./jbang build Shaper.java took longer than " + START_BOUND);
        }
        if (p.exitValue() != 0) {
            throw new AssertionError("./jbang build Shaper.java failed: exit " + p.exitValue());
        }
        built = true;
    }

    /** Starts without waiting (after {@link #ensureBuilt()}); see {@link #awaitReady()}. */
    static ShaperJvm start(String... flags) throws IOException, InterruptedException {
        ensureBuilt();
        int port = TestNet.freePort();
        Path log = Files.createTempFile("shaper-cluster", ".log");
        List<String> argv = new ArrayList<>(List.of("./jbang", "Shaper.java", "-bind", "127.0.0.1:" + port));
        argv.addAll(List.of(flags));
        Process p = new ProcessBuilder(argv).directory(ProjectRoot.find().toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new ShaperJvm(p, port, log);
    }

    /** Waits until the proxy answers its health check and its cluster link is connected. */
    ShaperJvm awaitReady() {
        URI health = URI.create("http://127.0.0.1:" + port + "/__shaper/health");
        RunningShaper.await("shaper process health on " + port, START_BOUND, () -> {
            if (!process.isAlive()) {
                throw new AssertionError("shaper exited: " + log());
            }
            return TestNet.ok(health);
        });
        RunningShaper.await("cluster link of " + port, Duration.ofSeconds(20), () -> log().contains("cluster limiter: connected"));
        return this;
    }

    int port() {
        return port;
    }

    String log() {
        return TestNet.read(log);
    }

    /** SIGKILL: no shutdown hook, no release; its permits can only expire. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        Files.deleteIfExists(log);
    }
}
