///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 21+
//JAVA_OPTIONS -Xms32m -Xmx128m

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fleet of coding agents for the {@code tokens} bench section: N agents, each sending Anthropic
 * Messages requests one after another for a fixed time, of mixed sizes (a prompt of 2 to 40 KiB,
 * {@code max_tokens} 64 to 512), every third one streaming. An agent whose request is refused
 * ({@code 429}, or a {@code 503}/{@code 529} such as an open circuit) waits its {@code retry-after}
 * (1 s without one, at most 10 s) and sends the next request, as an SDK would. Several URLs
 * (comma-separated: instances sharing one budget) are used round robin by agent.
 *
 * <pre>
 * TokenAgents -url http://127.0.0.1:PORT/v1/messages[,URL...] [-agents 8] [-seconds 60] [-seed 1]
 * </pre>
 *
 * Prints {@code TOKENS_RESULT sent=N ok=N s429=N other=N errors=N elapsed=SECONDS} ({@code elapsed}: from the
 * first request until the last agent returned). Every wait is bounded: a
 * request times out after 120 s; the run ends when the time is up and every agent has returned.
 */
public class TokenAgents {
    public static void main(String[] args) throws Exception {
        String url = null;
        int agents = 8;
        int seconds = 60;
        long seed = 1;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "-url" -> url = args[i + 1];
                case "-agents" -> agents = Integer.parseInt(args[i + 1]);
                case "-seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "-seed" -> seed = Long.parseLong(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown flag " + args[i]);
            }
        }
        if (url == null) {
            System.err.println("usage: TokenAgents -url URL [-agents 8] [-seconds 60] [-seed 1]");
            System.exit(2);
        }
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
        long started = System.nanoTime();
        long end = started + seconds * 1_000_000_000L;
        AtomicLong sent = new AtomicLong();
        AtomicLong ok = new AtomicLong();
        AtomicLong limited = new AtomicLong();
        AtomicLong other = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        CountDownLatch done = new CountDownLatch(agents);
        String[] targets = url.split(",");
        for (int a = 0; a < agents; a++) {
            URI target = URI.create(targets[a % targets.length]);
            SplittableRandom random = new SplittableRandom(seed * 1000 + a);
            Thread.ofVirtual().start(() -> {
                try {
                    while (System.nanoTime() < end) {
                        boolean stream = random.nextInt(3) == 0;
                        String body = "{\"model\":\"claude-bench\",\"max_tokens\":" + (64 + random.nextInt(449)) + ",\"stream\":" + stream
                                + ",\"messages\":[{\"role\":\"user\",\"content\":\"" + "lorem ipsum ".repeat(170 + random.nextInt(3250))
                                + "\"}]}";
                        HttpRequest req = HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(120))
                                .header("content-type", "application/json").header("anthropic-version", "2023-06-01")
                                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                        sent.incrementAndGet();
                        try {
                            HttpResponse<InputStream> r = client.send(req, HttpResponse.BodyHandlers.ofInputStream());
                            try (InputStream in = r.body()) {
                                in.transferTo(java.io.OutputStream.nullOutputStream());
                            }
                            if (r.statusCode() == 200) {
                                ok.incrementAndGet();
                            } else {
                                (r.statusCode() == 429 ? limited : other).incrementAndGet();
                                long wait = r.headers().firstValue("retry-after").map(Long::parseLong).orElse(1L);
                                long left = (end - System.nanoTime()) / 1_000_000;
                                Thread.sleep(Math.max(0, Math.min(Math.max(1, Math.min(wait, 10)) * 1000, left)));
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
        done.await();
        System.out.println("TOKENS_RESULT sent=" + sent.get() + " ok=" + ok.get() + " s429=" + limited.get() + " other=" + other.get()
                + " errors=" + errors.get() + " elapsed=" + String.format(java.util.Locale.ROOT, "%.1f", (System.nanoTime() - started) / 1e9));
    }
}
