package shaper.launcher;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.Version;

/**
 * Settles the launcher's port: probe {@code GET /__shaper/health}, reuse a shaper, start a detached
 * one on a free port and wait (bounded) for its health, or refuse a port held by anything else.
 */
public final class ShaperProcess {
    /** Covers a first {@code ./jbang Shaper.java}, which compiles the proxy (~10 s, more on a busy machine). */
    public static final Duration START_BOUND = Duration.ofSeconds(90);
    static final String HEALTH_PATH = "/__shaper/health";
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final int LOG_TAIL_LINES = 8;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ProxyOptions options;
    private final HttpClient client;
    private final URI health;

    public ShaperProcess(ProxyOptions options) {
        this.options = options;
        // Loopback only, never through a proxy: the JDK client uses none unless told to.
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(PROBE_TIMEOUT).build();
        this.health = URI.create(options.baseUrl() + HEALTH_PATH);
    }

    /** What holds the port now. */
    public PortState probe() throws InterruptedException {
        HttpResponse<String> r;
        try {
            r = client.send(HttpRequest.newBuilder(health).timeout(PROBE_TIMEOUT).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            return new PortState.Free();
        } catch (HttpTimeoutException e) {
            return new PortState.Foreign("no HTTP answer within " + PROBE_TIMEOUT.toSeconds() + "s");
        } catch (IOException e) {
            return new PortState.Foreign("not an HTTP answer (" + e.getClass().getSimpleName() + ")");
        }
        if (r.statusCode() != 200) {
            return new PortState.Foreign("GET " + HEALTH_PATH + " answered " + r.statusCode());
        }
        JsonNode doc;
        try {
            doc = JSON.readTree(r.body());
        } catch (IOException e) {
            return new PortState.Foreign("GET " + HEALTH_PATH + " answered 200 without JSON");
        }
        if (doc == null || !Version.SERVICE.equals(doc.path("service").asText(null)) || !doc.path("pid").canConvertToLong()) {
            return new PortState.Foreign("GET " + HEALTH_PATH + " answered JSON that is not " + Version.SERVICE + "'s");
        }
        List<String> upstreams = new ArrayList<>();
        doc.path("providers").forEach(p -> upstreams.add(p.path("upstream").asText("")));
        return new PortState.Shaper(doc.path("pid").asLong(), doc.path("version").asText(""), upstreams);
    }

    /**
     * Returns the shaper serving the port, starting one if the port is free.
     *
     * @param root      the directory with {@code jbang} and {@code Shaper.java}
     * @param env       the started shaper's environment
     * @param cancelled polled while waiting; true ends the wait with exit {@code 128+signal} (see caller)
     */
    public PortState.Shaper ensureRunning(Path root, Map<String, String> env, PrintStream err, BooleanSupplier cancelled)
            throws LaunchException, InterruptedException {
        PortState state = probe();
        return switch (state) {
            case PortState.Shaper s -> {
                err.println(LauncherMain.PREFIX + "reusing the shaper on " + options.baseUrl() + " (pid " + s.pid()
                        + ", upstream " + String.join(", ", s.upstreams()) + "); restart it to change its settings");
                otherUpstream(s).ifPresent(err::println);
                yield s;
            }
            case PortState.Foreign f -> throw refuse(f);
            case PortState.Free free -> start(root, env, err, cancelled);
        };
    }

    private PortState.Shaper start(Path root, Map<String, String> env, PrintStream err, BooleanSupplier cancelled)
            throws LaunchException, InterruptedException {
        PrivateFiles.prepareLog(options.log(), LauncherVariable.LOG.variable());
        if (options.mirrorLog().isPresent()) {
            PrivateFiles.prepareLog(options.mirrorLog().get(), LauncherVariable.MIRROR_LOG.variable());
        }
        List<String> command = ShaperArgs.command(root, options, ClaudeLocator.onPath("setsid", env.getOrDefault("PATH", ""), Set.of()));
        ProcessBuilder pb = new ProcessBuilder(command).directory(root.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(options.log().toFile()))
                .redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().putAll(env);
        err.println(LauncherMain.PREFIX + "starting a shaper on " + options.baseUrl() + " -> " + options.upstream()
                + " (log: " + options.log() + ")");
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new LaunchException("cannot start the shaper (" + command.getFirst() + "): " + e.getMessage());
        }
        return awaitHealthy(p, START_BOUND, cancelled);
    }

    /**
     * Polls health until a shaper answers (ours, or one that won a race for the port), the started
     * process exits, {@code cancelled} turns true, or {@code bound} passes.
     */
    PortState.Shaper awaitHealthy(Process p, Duration bound, BooleanSupplier cancelled) throws LaunchException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            if (cancelled.getAsBoolean()) {
                throw new LaunchException("stopped while waiting for the shaper to start");
            }
            PortState state = probe();
            if (state instanceof PortState.Shaper s) {
                return s;
            }
            if (!p.isAlive()) {
                throw new LaunchException("the shaper exited with code " + p.exitValue() + " before it became healthy"
                        + logTail() + "\n(full log: " + options.log() + ")");
            }
            if (System.nanoTime() > deadline) {
                p.toHandle().descendants().forEach(ProcessHandle::destroy);
                p.destroy();
                throw new LaunchException("the shaper did not become healthy within " + bound.toSeconds() + "s and was stopped"
                        + logTail() + "\n(full log: " + options.log() + ")");
            }
            // Waiting on the process doubles as the poll interval and notices an early exit at once.
            p.waitFor(POLL.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        }
    }

    /**
     * The warning for a reused shaper that forwards somewhere else than the launch asks for: Claude
     * Code would talk to that other upstream. Silent for a {@code SHAPER_CONFIG} launch (the file
     * names the upstream) and for a URL the proxy would refuse anyway.
     */
    java.util.Optional<String> otherUpstream(PortState.Shaper s) {
        if (options.config().isPresent()) {
            return java.util.Optional.empty();
        }
        String asked;
        try {
            asked = shaper.config.UpstreamUrl.display(shaper.config.UpstreamUrl.parse(options.upstream(), LauncherVariable.UPSTREAM.variable()));
        } catch (RuntimeException e) {
            return java.util.Optional.empty();
        }
        if (s.upstreams().stream().anyMatch(u -> u.replaceFirst("/$", "").equals(asked.replaceFirst("/$", "")))) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(LauncherMain.PREFIX + "WARNING: that shaper forwards to " + String.join(", ", s.upstreams()) + ", not to "
                + asked + " (" + LauncherVariable.UPSTREAM.variable() + "): Claude Code talks to its upstream. Stop it (kill " + s.pid()
                + ") to get one for " + asked + ", or set " + LauncherVariable.PORT.variable() + " to another port");
    }

    /**
     * Looks once at each upstream the shaper forwards to and says which cannot be reached; the launch
     * goes on (the upstream may come up, and the shaper's answers then name the cause too).
     */
    static void checkUpstreams(PortState.Shaper s, PrintStream err) throws InterruptedException {
        for (String upstream : s.upstreams()) {
            URI uri;
            try {
                uri = URI.create(upstream);
            } catch (IllegalArgumentException e) {
                continue;
            }
            java.util.Optional<String> problem = shaper.proxy.client.Reachability.problem(uri, PROBE_TIMEOUT);
            if (problem.isPresent()) {
                err.println(LauncherMain.PREFIX + "WARNING: the upstream " + upstream + " cannot be reached (" + problem.get()
                        + "); Claude Code's requests will fail until it is up. " + LauncherVariable.UPSTREAM.variable()
                        + " names another (see docs/claude-code.md)");
            }
        }
    }

    private LaunchException refuse(PortState.Foreign f) {
        return new LaunchException("127.0.0.1:" + options.port() + " is held by something that is not " + Version.SERVICE
                + " (" + f.evidence() + "); stop it or set " + LauncherVariable.PORT.variable()
                + " to another port. Claude Code was not started");
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(options.log());
            List<String> tail = lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size());
            return tail.isEmpty() ? "" : ":\n  " + String.join("\n  ", tail);
        } catch (IOException e) {
            return "";
        }
    }
}
