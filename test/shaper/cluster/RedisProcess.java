package shaper.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import shaper.testing.RunningShaper;
import shaper.testing.TestNet;

/**
 * A real {@code redis-server} (or sentinel) on a free loopback port, without persistence, stopped
 * by its own PID. {@link #kill()} then {@link #start()} again restarts it on the same port with
 * empty data, as a crashed Redis without persistence comes back.
 */
final class RedisProcess implements AutoCloseable {
    private static final Duration START_BOUND = Duration.ofSeconds(20);
    /** What a server logs once it serves (plain or TLS), and what a sentinel logs once it monitors. */
    static final String SERVER_READY = "Ready to accept connections";
    static final String SENTINEL_READY = "+monitor master";

    /** The command line of a server or sentinel on {@code port}, its files in {@code dir}. */
    interface Argv {
        List<String> of(int port, Path dir) throws IOException;
    }

    private final int port;
    private final Path dir;
    private final Argv argv;
    private final String ready;
    private Process process;

    private RedisProcess(int port, Argv argv, String ready) throws IOException {
        this.port = port;
        this.dir = Files.createTempDirectory("shaper-redis");
        this.argv = argv;
        this.ready = ready;
    }

    /** Starts a fresh plain server on a free port. */
    static RedisProcess startFresh() throws IOException {
        return launch((port, dir) -> plain(port, dir), SERVER_READY);
    }

    /** Starts a process on a free port and waits until its log shows {@code ready}. */
    static RedisProcess launch(Argv argv, String ready) throws IOException {
        RedisProcess r = new RedisProcess(TestNet.freePort(), argv, ready);
        r.start();
        return r;
    }

    /** The arguments of a plain server without persistence; callers append to them. */
    static List<String> plain(int port, Path dir) {
        return new java.util.ArrayList<>(List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString()));
    }

    /** Starts (or restarts) the process on this port and waits until it says it is ready. */
    void start() throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("redis already running");
        }
        Path log = dir.resolve("redis.log");
        process = new ProcessBuilder(argv.of(port, dir)).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        RunningShaper.await("redis on port " + port, START_BOUND, () -> {
            if (!process.isAlive()) {
                throw new AssertionError("redis on port " + port + " exited: " + TestNet.read(log));
            }
            return TestNet.read(log).contains(ready);
        });
    }

    /** The process's log so far. */
    String log() {
        return TestNet.read(dir.resolve("redis.log"));
    }

    Path dir() {
        return dir;
    }

    /** SIGKILL, then waits until the process is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** SIGSTOP: the server keeps its sockets open but answers nothing (a hung or overloaded Redis). */
    void pause() throws Exception {
        signal("-STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    void resume() throws Exception {
        signal("-CONT");
    }

    private void signal(String sig) throws Exception {
        Process kill = new ProcessBuilder("kill", sig, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill " + sig + " " + process.pid() + " failed");
        }
    }

    String url() {
        return "redis://127.0.0.1:" + port;
    }

    int port() {
        return port;
    }

    /** One inline command (space-separated words), its first reply line, or null if Redis does not answer. */
    String command(String words) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(2000);
            OutputStream out = s.getOutputStream();
            out.write((words + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = s.getInputStream();
            StringBuilder line = new StringBuilder();
            int c;
            while ((c = in.read()) != -1 && c != '\n') {
                if (c != '\r') {
                    line.append((char) c);
                }
            }
            return line.toString();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public void close() throws Exception {
        if (process != null && process.isAlive()) {
            resume(); // a paused server would ignore SIGTERM until continued
        }
        if (process != null) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
