package shaper.routing;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import shaper.limit.LimiterSnapshot;
import shaper.observe.ExchangeRecord;
import shaper.testing.RunningShaper;

/** The routed-mount fixture the routing tests share: two providers a and b behind {@code /r}, and its probes. */
final class Routed {
    static final Duration BOUND = Duration.ofSeconds(15);
    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private Routed() {
    }

    /** {@code -route-prefix /r}, the server flags given, then provider a and b at their own mounts with {@code aFlags} / {@code bFlags}. */
    static RunningShaper start(List<String> server, String upA, List<String> aFlags, String upB, List<String> bFlags) {
        List<String> argv = new ArrayList<>(List.of("-bind", "127.0.0.1:0", "-route-prefix", "/r"));
        argv.addAll(server);
        argv.addAll(List.of("--provider=a", "-upstream", upA, "-prefix", "/a", "-retry", "0"));
        argv.addAll(aFlags);
        argv.addAll(List.of("--provider=b", "-upstream", upB, "-prefix", "/b", "-retry", "0"));
        argv.addAll(bFlags);
        return RunningShaper.start(argv.toArray(String[]::new));
    }

    /** A Messages body naming {@code model}. */
    static String messages(String model) {
        return "{\"model\":\"" + model + "\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    }

    static CompletableFuture<HttpResponse<String>> post(RunningShaper s, String path, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(s.uri(path)).timeout(BOUND).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return CLIENT.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> postNow(RunningShaper s, String path, String body, String... headers) throws Exception {
        return post(s, path, body, headers).get(BOUND.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
    }

    /** The newest record of {@code provider}'s journal, once there are {@code n}. */
    static ExchangeRecord newest(RunningShaper s, String provider, int n) {
        RunningShaper.await(n + " records of " + provider, BOUND, () -> s.server().journal(provider).recent().size() >= n);
        return s.server().journal(provider).recent().getFirst();
    }

    /** Waits until no limiter of either provider holds, cools or queues anything, and nothing is in flight: nothing left behind. */
    static void awaitNothingHeld(RunningShaper s) {
        RunningShaper.await("every slot back, nothing queued or in flight", BOUND, () -> {
            for (String p : List.of("a", "b")) {
                for (LimiterSnapshot l : s.server().limiters(p)) {
                    if (l.inUse() != 0 || l.cooling() != 0 || l.waiters() != 0) {
                        return false;
                    }
                }
                if (s.server().journal(p).activeCount() != 0 || s.server().journal(p).queuedCount() != 0) {
                    return false;
                }
            }
            return true;
        });
    }
}
