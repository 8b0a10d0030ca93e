///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 21+
//JAVA_OPTIONS -Xms64m -Xmx512m

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Load clients of bench/run.sh's smarter-queue sections; each prints one {@code *_RESULT k=v ...} line.
 *
 * <pre>
 * capacity: -proxy URL -probe URL -clients 32 -phases 6:60,12:40,4:40 -settle 20 -latency-ms 100 [-metrics URL] [-csv FILE]
 *   closed-loop clients POST a small non-streaming Messages request to -path (default /capacity/v1/messages)
 *   through the proxy; at each phase start the probe's capacity is set (POST /__probe/capacity?n=N).
 *   Per second: 200s, 429s, other answers, and shaper_limit{limiter="default"} scraped from -metrics.
 *   Per phase, after -settle seconds: the 429 share, goodput (200s/s) against N's goodput (what the fixture
 *   completes with exactly N in flight: in a saturated closed loop every request arrives as the N-th, so each
 *   waits the /capacity table's 2.5 x latency: N / (2.5 x latency)), the best any fixed concurrency c gets
 *   from the fixture (max over c <= N of c / first-byte delay(c)), and the first second after which the
 *   rest of the phase keeps 429s under 2 % and goodput at 85 % of N's ("followed").
 * priority: -proxy URL -background 16 -interactive 1 -seconds 30 [-path /slow/v1/messages?delay=100ms]
 *   background clients send with X-Shaper-Priority: background, the interactive ones with interactive, all in
 *   closed loops; reports each class's latency p50/p90 and the p50 wait (latency minus the service time: the fastest of
 *   five requests sent alone before the load).
 * </pre>
 */
public class QueueLoad {
    private static final String BODY = "{\"model\":\"claude-probe-1\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .executor(Executors.newVirtualThreadPerTaskExecutor()).connectTimeout(Duration.ofSeconds(5)).build();

    public static void main(String[] argv) throws Exception {
        if (argv.length == 0) {
            throw new IllegalArgumentException("usage: QueueLoad capacity|priority -flag value ...");
        }
        Map<String, String> a = new LinkedHashMap<>();
        for (int i = 1; i + 1 < argv.length; i += 2) {
            a.put(argv[i].replaceFirst("^-+", ""), argv[i + 1]);
        }
        switch (argv[0]) {
            case "capacity" -> capacity(a);
            case "priority" -> priority(a);
            default -> throw new IllegalArgumentException("unknown mode " + argv[0]);
        }
        System.exit(0);
    }

    // ---- capacity ------------------------------------------------------------------------------

    private record Second(int n, int ok, int limited, int other, int limit) {
    }

    private static void capacity(Map<String, String> a) throws Exception {
        String proxy = a.get("proxy");
        String probe = a.get("probe");
        String path = a.getOrDefault("path", "/capacity/v1/messages");
        int clients = Integer.parseInt(a.getOrDefault("clients", "32"));
        int settle = Integer.parseInt(a.getOrDefault("settle", "20"));
        double latencyMs = Double.parseDouble(a.getOrDefault("latency-ms", "100"));
        String metrics = a.get("metrics");
        List<int[]> phases = new ArrayList<>();
        for (String p : a.getOrDefault("phases", "6:60,12:40,4:40").split(",")) {
            String[] nv = p.split(":");
            phases.add(new int[] {Integer.parseInt(nv[0]), Integer.parseInt(nv[1])});
        }
        int total = phases.stream().mapToInt(p -> p[1]).sum();
        int[][] counts = new int[total + 1][3];
        AtomicBoolean stop = new AtomicBoolean();
        long start = System.nanoTime();
        setCapacity(probe, phases.getFirst()[0]);
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        URI target = URI.create(proxy + path);
        for (int c = 0; c < clients; c++) {
            threads.submit(() -> {
                while (!stop.get()) {
                    int status;
                    try {
                        status = CLIENT.send(HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(60))
                                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(BODY)).build(),
                                HttpResponse.BodyHandlers.discarding()).statusCode();
                    } catch (IOException e) {
                        status = 0;
                    } catch (InterruptedException e) {
                        return;
                    }
                    int sec = (int) ((System.nanoTime() - start) / 1_000_000_000L);
                    if (sec <= total) {
                        synchronized (counts) {
                            counts[sec][status == 200 ? 0 : status == 429 || status == 529 ? 1 : 2]++;
                        }
                    }
                }
            });
        }
        List<Second> seconds = new ArrayList<>();
        int phase = 0;
        int phaseEnd = phases.getFirst()[1];
        for (int sec = 0; sec < total; sec++) {
            long due = start + (sec + 1) * 1_000_000_000L;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            int limit = metrics == null ? -1 : scrapeLimit(metrics);
            int[] c;
            synchronized (counts) {
                c = counts[sec].clone();
            }
            seconds.add(new Second(phases.get(phase)[0], c[0], c[1], c[2], limit));
            if (sec + 1 == phaseEnd && phase + 1 < phases.size()) {
                phase++;
                phaseEnd += phases.get(phase)[1];
                setCapacity(probe, phases.get(phase)[0]);
            }
        }
        stop.set(true);
        threads.shutdownNow();
        threads.awaitTermination(10, TimeUnit.SECONDS);
        if (a.containsKey("csv")) {
            StringBuilder csv = new StringBuilder("second,capacity,ok,refused,other,limit\n");
            for (int i = 0; i < seconds.size(); i++) {
                Second s = seconds.get(i);
                csv.append(i).append(',').append(s.n).append(',').append(s.ok).append(',').append(s.limited).append(',')
                        .append(s.other).append(',').append(s.limit).append('\n');
            }
            Files.writeString(Path.of(a.get("csv")), csv);
        }
        StringBuilder out = new StringBuilder("CAPACITY_RESULT clients=" + clients);
        int from = 0;
        for (int p = 0; p < phases.size(); p++) {
            int n = phases.get(p)[0];
            int len = phases.get(p)[1];
            List<Second> all = seconds.subList(from, Math.min(seconds.size(), from + len));
            from += len;
            double ideal = ideal(n, latencyMs);
            double best = best(n, latencyMs);
            List<Second> settled = all.subList(Math.min(settle, all.size()), all.size());
            int followed = -1;
            for (int t = 0; t < all.size() && followed < 0; t++) {
                List<Second> rest = all.subList(t, all.size());
                if (share429(rest) < 0.02 && goodput(rest) >= 0.85 * ideal) {
                    followed = t;
                }
            }
            String k = "p" + (p + 1) + "_";
            out.append(String.format(Locale.ROOT, " %sn=%d %sseconds=%d %srate429=%.4f %sgoodput=%.1f %sideal=%.1f %sbest=%.1f %sfollowed_s=%d %slimit_end=%d",
                    k, n, k, len, k, share429(settled), k, goodput(settled), k, ideal, k, best, k, followed, k,
                    all.isEmpty() ? -1 : all.getLast().limit));
        }
        System.out.println(out);
    }

    /**
     * N's goodput: requests/s the fixture completes with exactly n in flight. Each request's first-byte
     * delay is fixed by how many are in flight when it arrives, and in a saturated closed loop a request
     * arrives as soon as another ended, so it is the n-th: every one waits 2.5 x latency. (Counting slot k
     * at its own delay, as if the first requests kept the short delays, overstates it: no limit reaches that.)
     */
    private static double ideal(int n, double latencyMs) {
        return n * 1000.0 / (latencyMs * factor(n, n));
    }

    /** The most any fixed concurrency c <= n gets from the fixture: c / (c-th first-byte delay). */
    private static double best(int n, double latencyMs) {
        double best = 0;
        for (int c = 1; c <= n; c++) {
            best = Math.max(best, c * 1000.0 / (latencyMs * factor(c, n)));
        }
        return best;
    }

    /** The /capacity table: the k-th request in flight under capacity n waits this many times the latency. */
    private static double factor(int k, int n) {
        return k >= n ? 2.5 : k == n - 1 ? 1.5 : 1.0;
    }

    private static double share429(List<Second> s) {
        long refused = s.stream().mapToLong(x -> x.limited).sum();
        long all = s.stream().mapToLong(x -> x.ok + x.limited + x.other).sum();
        return all == 0 ? 0 : (double) refused / all;
    }

    private static double goodput(List<Second> s) {
        return s.isEmpty() ? 0 : s.stream().mapToLong(x -> x.ok).sum() / (double) s.size();
    }

    private static void setCapacity(String probe, int n) throws Exception {
        int code = CLIENT.send(HttpRequest.newBuilder(URI.create(probe + "/__probe/capacity?n=" + n))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        if (code != 200) {
            throw new IllegalStateException("probe refused capacity " + n + ": " + code);
        }
    }

    private static final Pattern LIMIT = Pattern.compile("^shaper_limit\\{[^}]*limiter=\"default\"[^}]*\\} ([0-9.eE+]+)", Pattern.MULTILINE);

    private static int scrapeLimit(String metrics) {
        try {
            String text = CLIENT.send(HttpRequest.newBuilder(URI.create(metrics)).timeout(Duration.ofSeconds(2)).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            Matcher m = LIMIT.matcher(text);
            return m.find() ? (int) Double.parseDouble(m.group(1)) : -1;
        } catch (IOException | InterruptedException e) {
            return -1;
        }
    }

    // ---- priority ------------------------------------------------------------------------------

    private static void priority(Map<String, String> a) throws Exception {
        String proxy = a.get("proxy");
        URI target = URI.create(proxy + a.getOrDefault("path", "/slow/v1/messages?delay=100ms"));
        int background = Integer.parseInt(a.getOrDefault("background", "16"));
        int interactive = Integer.parseInt(a.getOrDefault("interactive", "1"));
        int seconds = Integer.parseInt(a.getOrDefault("seconds", "30"));
        int warmup = Integer.parseInt(a.getOrDefault("warmup", "5"));
        Map<String, ConcurrentLinkedQueue<Long>> latencies = Map.of("background", new ConcurrentLinkedQueue<>(),
                "interactive", new ConcurrentLinkedQueue<>());
        // The service time: the fastest of a few requests sent alone, before any load.
        long service = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long t0 = System.nanoTime();
            CLIENT.send(HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(30)).header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(BODY)).build(), HttpResponse.BodyHandlers.discarding());
            service = Math.min(service, System.nanoTime() - t0);
        }
        AtomicBoolean stop = new AtomicBoolean();
        long measureFrom = System.nanoTime() + warmup * 1_000_000_000L;
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        int[] errors = new int[1];
        for (int c = 0; c < background + interactive; c++) {
            String cls = c < background ? "background" : "interactive";
            threads.submit(() -> {
                while (!stop.get()) {
                    long t0 = System.nanoTime();
                    try {
                        int code = CLIENT.send(HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(120))
                                .header("content-type", "application/json").header("X-Shaper-Priority", cls)
                                .POST(HttpRequest.BodyPublishers.ofString(BODY)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
                        if (code != 200) {
                            synchronized (errors) {
                                errors[0]++;
                            }
                            continue;
                        }
                    } catch (IOException e) {
                        synchronized (errors) {
                            errors[0]++;
                        }
                        continue;
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (t0 >= measureFrom) {
                        latencies.get(cls).add(System.nanoTime() - t0);
                    }
                }
            });
        }
        TimeUnit.SECONDS.sleep(warmup + seconds);
        stop.set(true);
        threads.shutdownNow();
        threads.awaitTermination(130, TimeUnit.SECONDS);
        long fastest = service;
        StringBuilder out = new StringBuilder("PRIORITY_RESULT background_clients=" + background + " interactive_clients=" + interactive
                + " errors=" + errors[0] + " service_ms=" + fmt(fastest));
        for (String cls : List.of("interactive", "background")) {
            long[] sorted = latencies.get(cls).stream().mapToLong(Long::longValue).sorted().toArray();
            out.append(' ').append(cls).append("_n=").append(sorted.length)
                    .append(' ').append(cls).append("_p50_ms=").append(fmt(pct(sorted, 0.5)))
                    .append(' ').append(cls).append("_p90_ms=").append(fmt(pct(sorted, 0.9)))
                    .append(' ').append(cls).append("_wait_p50_ms=").append(fmt(Math.max(0, pct(sorted, 0.5) - fastest)));
        }
        System.out.println(out);
    }

    private static long pct(long[] sorted, double q) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.floor(q * sorted.length))];
    }

    private static String fmt(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e6);
    }
}
