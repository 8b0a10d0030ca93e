package shaper.tui;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import shaper.testing.RunningShaper;
import shaper.testing.TestNet;

/**
 * {@code ./jbang Shaper.java -tui ...} typed into a {@link TmuxSession}'s shell, followed by
 * {@code echo EXIT=$?} so the test sees the exit code on screen after the program leaves.
 */
final class TuiProcess {
    static final String EXIT_MARK = "EXIT=";
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private final TmuxSession tmux;
    private final int port;

    private TuiProcess(TmuxSession tmux, int port) {
        this.tmux = tmux;
        this.port = port;
    }

    /** Types the command with {@code args} after {@code -tui -bind 127.0.0.1:PORT}, then waits for health and the dashboard. */
    static TuiProcess start(TmuxSession tmux, String... args) throws IOException, InterruptedException {
        return startWith(tmux, List.of(), args);
    }

    /** Like {@link #start}, with {@code env} ({@code NAME=value} words) set for the program only. */
    static TuiProcess startWith(TmuxSession tmux, List<String> env, String... args) throws IOException, InterruptedException {
        int port = TestNet.freePort();
        List<String> line = new ArrayList<>(env);
        line.addAll(List.of("./jbang", "Shaper.java", "-tui", "-bind", "127.0.0.1:" + port));
        line.addAll(List.of(args));
        tmux.type(String.join(" ", line) + "; echo " + EXIT_MARK + "$?");
        URI health = URI.create("http://127.0.0.1:" + port + "/__shaper/health");
        RunningShaper.await("the shaper's health under tmux", TmuxSession.START_BOUND, () -> TestNet.ok(health));
        TuiProcess p = new TuiProcess(tmux, port);
        tmux.await("the dashboard", Duration.ofSeconds(30), s -> s.contains("━━ Dashboard") && s.contains(" q quit"));
        return p;
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** Sends a request with {@code headers} (name, value pairs) and a JSON body, or a GET without a body. */
    CompletableFuture<HttpResponse<String>> send(String method, String path, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(60))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return CLIENT.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Sends a GET without waiting for its answer. */
    CompletableFuture<HttpResponse<String>> get(String path) {
        return CLIENT.sendAsync(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
