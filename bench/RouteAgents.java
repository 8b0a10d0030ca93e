///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 21+
//JAVA_OPTIONS -Xms32m -Xmx128m

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Closed-loop agents for the {@code routing_goodput} bench section: N agents each POST a small
 * non-streaming Messages request to the routed mount, one after another, for a fixed time, and count
 * what came back. With {@code -kill-pid P -kill-at S} the tool stops process P (a provider's fixture)
 * by its PID S seconds in, and reports the time from then to the first success of a request sent
 * after it (its first target is dead, so that success was served by the next one).
 *
 * <pre>
 * RouteAgents -url http://127.0.0.1:PORT/r/capacity/v1/messages [-agents 8] [-seconds 60] [-kill-pid P -kill-at S]
 * </pre>
 *
 * Prints {@code ROUTE_RESULT sent=N ok=N s429=N other=N errors=N elapsed=S [death_to_success_ms=N]}.
 * Every wait is bounded: a request times out after 30 s.
 */
public class RouteAgents {
    private static final String BODY = "{\"model\":\"claude-bench\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    public static void main(String[] args) throws Exception {
        String url = null;
        int agents = 8;
        int seconds = 60;
        long killPid = -1;
        int killAt = -1;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "-url" -> url = args[i + 1];
                case "-agents" -> agents = Integer.parseInt(args[i + 1]);
                case "-seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "-kill-pid" -> killPid = Long.parseLong(args[i + 1]);
                case "-kill-at" -> killAt = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown flag " + args[i]);
            }
        }
        if (url == null) {
            throw new IllegalArgumentException("usage: RouteAgents -url URL [-agents N] [-seconds S] [-kill-pid P -kill-at S]");
        }
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        AtomicLong sent = new AtomicLong(), ok = new AtomicLong(), s429 = new AtomicLong(), other = new AtomicLong(), errors = new AtomicLong();
        AtomicLong killedAt = new AtomicLong(Long.MAX_VALUE), firstAfter = new AtomicLong(Long.MAX_VALUE);
        long start = System.nanoTime();
        long end = start + Duration.ofSeconds(seconds).toNanos();
        URI uri = URI.create(url);
        CountDownLatch done = new CountDownLatch(agents);
        for (int a = 0; a < agents; a++) {
            Thread.ofVirtual().start(() -> {
                try {
                    while (System.nanoTime() < end) {
                        long began = System.nanoTime();
                        sent.incrementAndGet();
                        try {
                            int code = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                                    .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(BODY)).build(),
                                    HttpResponse.BodyHandlers.discarding()).statusCode();
                            if (code == 200) {
                                ok.incrementAndGet();
                                if (began > killedAt.get()) {
                                    firstAfter.accumulateAndGet(System.nanoTime(), Math::min);
                                }
                            } else if (code == 429) {
                                s429.incrementAndGet();
                            } else {
                                other.incrementAndGet();
                            }
                        } catch (java.io.IOException e) {
                            errors.incrementAndGet();
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    done.countDown();
                }
            });
        }
        if (killPid > 0 && killAt >= 0) {
            Thread.sleep(Duration.ofSeconds(killAt)); // a point in the run, not a synchronization
            ProcessHandle.of(killPid).ifPresent(p -> {
                killedAt.set(System.nanoTime());
                p.descendants().forEach(ProcessHandle::destroyForcibly); // jbang's java child is the listener
                p.destroyForcibly();
            });
        }
        if (!done.await(seconds + 60L, java.util.concurrent.TimeUnit.SECONDS)) {
            System.err.println("agents did not return in time");
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        StringBuilder out = new StringBuilder("ROUTE_RESULT sent=" + sent + " ok=" + ok + " s429=" + s429 + " other=" + other
                + " errors=" + errors + String.format(" elapsed=%.1f", elapsed));
        if (killedAt.get() != Long.MAX_VALUE) {
            long first = firstAfter.get();
            out.append(" death_to_success_ms=").append(first == Long.MAX_VALUE ? -1 : (first - killedAt.get()) / 1_000_000);
        }
        System.out.println(out);
    }
}
