package shaper.cluster;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** HTTP clients for the cluster tests: one request, or a burst fired at once from many threads. */
final class Clients {
    static final Duration REQUEST_BOUND = Duration.ofSeconds(60);
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .executor(Executors.newVirtualThreadPerTaskExecutor()).build();

    private Clients() {
    }

    static URI uri(int port, String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** GET, bounded; the response with its body. */
    static HttpResponse<String> get(URI uri) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(uri).timeout(REQUEST_BOUND).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** POST a JSON body, bounded. */
    static HttpResponse<String> post(URI uri, String json) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(uri).timeout(REQUEST_BOUND).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A GET started in the background. */
    static CompletableFuture<HttpResponse<String>> getAsync(URI uri) {
        return CLIENT.sendAsync(HttpRequest.newBuilder(uri).timeout(REQUEST_BOUND).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Fires every GET at once, each from its own virtual thread; their statuses in order. */
    static List<Integer> burst(List<URI> uris) throws Exception {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Integer>> futures = new ArrayList<>();
            for (URI u : uris) {
                futures.add(pool.submit(() -> get(u).statusCode()));
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> f : futures) {
                statuses.add(f.get(REQUEST_BOUND.toSeconds() * 2, TimeUnit.SECONDS));
            }
            return statuses;
        }
    }
}
