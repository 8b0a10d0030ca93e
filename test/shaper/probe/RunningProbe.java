package shaper.probe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The probe on an ephemeral loopback port plus a JDK HttpClient (HTTP/1.1) aimed at it. */
final class RunningProbe implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final ProbeServer server;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT).build();

    private RunningProbe(ProbeServer server) {
        this.server = server;
    }

    /** Started from a command line as {@code ProbeServer.java} parses it; binds 127.0.0.1:0. */
    static RunningProbe start(Sleeper sleeper, String... argv) {
        List<String> args = new ArrayList<>(List.of(argv));
        args.addAll(List.of("-bind", "127.0.0.1:0"));
        return new RunningProbe(ProbeServer.start(ProbeMain.parse(args), sleeper, null));
    }

    static RunningProbe start(String... argv) {
        return start(new RecordingSleeper(), argv);
    }

    ProbeServer server() {
        return server;
    }

    URI uri(String pathAndQuery) {
        return server.uri(pathAndQuery);
    }

    HttpResponse<String> post(String pathAndQuery, String body) {
        return send(HttpRequest.newBuilder(uri(pathAndQuery)).timeout(TIMEOUT)
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    HttpResponse<String> get(String pathAndQuery) {
        return send(HttpRequest.newBuilder(uri(pathAndQuery)).timeout(TIMEOUT).GET().build());
    }

    /** Sends and fails the test on a transport error; use {@link #client()} to expect one. */
    HttpResponse<String> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    HttpClient client() {
        return client;
    }

    /** {@code GET /__probe/stats}, parsed. */
    JsonNode stats() {
        return json(get("/__probe/stats").body());
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    /** Polls (bounded) until the condition holds; fails the test otherwise. */
    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + TIMEOUT + " waiting for: " + what);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for: " + what, e);
            }
        }
    }

    @Override
    public void close() {
        server.stop();
    }
}
