///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 21+
//JAVA_OPTIONS -Xms64m -Xmx768m -XX:+UseParallelGC
//SOURCES ../lib/shaper/config/GoDuration.java

import shaper.config.GoDuration;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Floods a concurrency-limited proxy with N clients at once, one request each, and checks that they
 * are all served, in the order they were sent, without more than the limit reaching the upstream.
 *
 * <ol>
 *   <li>Closes the fake upstream's gate ({@code /__gate/close}), so the first requests admitted stay
 *       in flight at the upstream and every later one has to queue in the proxy.</li>
 *   <li>Opens N keep-alive connections to the proxy, one after another.</li>
 *   <li>From one thread, in order, sends request i ({@code GET PATH?seq=i&delay=D&gate=1}) on
 *       connection i, each {@code -gap} after the previous one, so they reach the proxy in send order.</li>
 *   <li>Waits until the kernel holds no unread bytes on any connection to the proxy's port (every
 *       request read, so queued), measures the proxy's CPU over {@code -settle-min} of pure waiting,
 *       samples its RSS, then opens the gate and reads every response.</li>
 * </ol>
 *
 * The upstream numbers the seq-carrying requests in arrival order ({@code X-Served-Index}); sorted
 * by seq those indexes must be increasing. With a limit of L, requests admitted together may reach
 * the upstream in any order, so inversions between seq values less than L apart are expected;
 * "far" inversions (L or more apart) mean a request overtook one queued before it.
 *
 * <p>Prints progress to stderr and one {@code FLOOD_RESULT key=value ...} line to stdout, plus
 * {@code FLOOD_ERROR} lines (first 20 errors). Every wait is bounded by {@code -timeout}; the drain
 * also ends after {@code -stall} without a single new answer (a wedged proxy).
 *
 * <p>Usage: {@code ./jbang bench/QueueFlood.java -proxy http://127.0.0.1:P -upstream http://127.0.0.1:U
 * [-n 10000] [-path /queue/1k] [-delay 5ms] [-gap 1ms] [-limit 4] [-proxy-pid PID] [-timeout 300s] [-dump FILE.csv]}
 */
public class QueueFlood {
    private static final int MAX_ERRORS_SHOWN = 20;

    private final Settings settings;
    private final Socket[] sockets;
    private final int[] status;
    private final long[] servedIndex;
    private final long[] doneNanos;
    private final String[] errors;
    private final AtomicInteger completed = new AtomicInteger();
    private final Map<String, AtomicInteger> errorKinds = new ConcurrentHashMap<>();
    private final long deadlineNanos;

    record Settings(URI proxy, URI upstream, int n, String path, String delay, long gapNanos, int limit, long proxyPid,
                    Duration timeout, Duration settleMin, Duration settleMax, Duration stall, Path dump) {
    }

    QueueFlood(Settings settings) {
        this.settings = settings;
        int n = settings.n();
        sockets = new Socket[n];
        status = new int[n];
        servedIndex = new long[n];
        doneNanos = new long[n];
        errors = new String[n];
        Arrays.fill(servedIndex, -1);
        deadlineNanos = System.nanoTime() + settings.timeout().toNanos();
    }

    public static void main(String[] args) throws Exception {
        Settings s = parse(args);
        Map<String, String> result = new QueueFlood(s).run();
        StringBuilder line = new StringBuilder("FLOOD_RESULT");
        result.forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
        System.out.println(line);
    }

    Map<String, String> run() throws Exception {
        Map<String, String> r = new LinkedHashMap<>();
        int n = settings.n();
        get(settings.upstream().resolve("/__gate/close"));
        Rss before = Rss.of(settings.proxyPid());
        try {
            long t0 = System.nanoTime();
            int connected = connectAll();
            long tConnected = System.nanoTime();
            log("connected %d/%d in %.1f s", connected, n, seconds(tConnected - t0));
            Rss afterConnect = Rss.of(settings.proxyPid());

            ExecutorService readers = Executors.newVirtualThreadPerTaskExecutor();
            CountDownLatch allDone = new CountDownLatch(n);
            long tSendStart = System.nanoTime();
            int sent = sendAll(readers, allDone);
            long tSent = System.nanoTime();
            log("sent %d requests in %.2f s (gap %d µs); %d answered so far", sent, seconds(tSent - tSendStart),
                    settings.gapNanos() / 1000, completed.get());

            Settle settle = waitForQueuedProxy();
            Rss queued = Rss.of(settings.proxyPid());
            Heap heapQueued = Heap.of(settings.proxyPid());
            int answeredWhileGated = completed.get();
            log("proxy read every request %.1f s after the last send (%d unread); %d connections; CPU while waiting %.0f%% of a core;"
                    + " RSS %s, peak %s; %d answered while gated", seconds(settle.readNanos()), settle.unread(), settle.established(),
                    settle.cpuPct(), queued.rssText(), queued.hwmText(), answeredWhileGated);
            String stats = get(settings.upstream().resolve("/__stats"));
            long gatedInflight = statValue(stats, "inflight_now");

            long tOpen = System.nanoTime();
            get(settings.upstream().resolve("/__gate/open"));
            boolean stalled = false;
            boolean finished = false;
            int seen = -1;
            long progressAt = System.nanoTime();
            // Waits for every answer; gives up at the deadline or after -stall without a single new one.
            while (!finished && System.nanoTime() < deadlineNanos) {
                finished = allDone.await(Math.min(1_000_000_000L, Math.max(1, deadlineNanos - System.nanoTime())), TimeUnit.NANOSECONDS);
                int now = completed.get();
                if (now != seen) {
                    seen = now;
                    progressAt = System.nanoTime();
                } else if (!finished && System.nanoTime() - progressAt > settings.stall().toNanos()) {
                    stalled = true;
                    break;
                }
            }
            long tEnd = System.nanoTime();
            if (!finished) {
                log("%s: %d of %d answered", stalled ? "stalled for " + settings.stall() : "timeout", completed.get(), n);
            }
            Rss end = Rss.of(settings.proxyPid());
            Heap heapEnd = Heap.of(settings.proxyPid());
            String health = proxyHealth();
            if (!finished) {
                // Recorded before closing, so the readers' "socket closed" does not hide why.
                for (int i = 0; i < n; i++) {
                    if (sockets[i] != null && doneNanos[i] == 0) {
                        fail(i, "unanswered", "no response when the client gave up (" + (stalled ? "stalled" : "deadline") + ")");
                    }
                }
            }
            String endStats = get(settings.upstream().resolve("/__stats"));

            closeAll();
            readers.shutdownNow();
            readers.awaitTermination(10, TimeUnit.SECONDS);

            r.put("n", Integer.toString(n));
            r.put("connected", Integer.toString(connected));
            r.put("sent", Integer.toString(sent));
            int ok = 0;
            for (int i = 0; i < n; i++) {
                if (status[i] == 200 && servedIndex[i] >= 0) {
                    ok++;
                }
            }
            r.put("ok", Integer.toString(ok));
            r.put("errors", Integer.toString(n - ok));
            r.put("timed_out", Boolean.toString(!finished && !stalled));
            r.put("stalled", Boolean.toString(stalled));
            r.put("proxy_health_after", health);
            r.put("connect_s", fmt(seconds(tConnected - t0)));
            r.put("send_s", fmt(seconds(tSent - tSendStart)));
            r.put("gap_us", Long.toString(settings.gapNanos() / 1000));
            r.put("read_all_s", fmt(seconds(settle.readNanos())));
            r.put("unread_at_sample", Integer.toString(settle.unread()));
            r.put("proxy_connections_at_sample", Integer.toString(settle.established()));
            r.put("proxy_cpu_queued_pct", fmt(settle.cpuPct()));
            r.put("answered_while_gated", Integer.toString(answeredWhileGated));
            r.put("upstream_inflight_gated", Long.toString(gatedInflight));
            r.put("drain_s", fmt(seconds(tEnd - tOpen)));
            r.put("total_s", fmt(seconds(tEnd - tSendStart)));
            r.put("drain_rps", fmt(ok / Math.max(1e-9, seconds(lastDone() - tOpen))));
            order(r);
            r.put("upstream_inflight_peak", Long.toString(statValue(endStats, "inflight_peak")));
            r.put("upstream_seq_served", Long.toString(statValue(endStats, "seq_served")));
            before.put(r, "before");
            afterConnect.put(r, "connected");
            queued.put(r, "queued");
            end.put(r, "end");
            heapQueued.put(r, "queued");
            heapEnd.put(r, "end");
            errorSummary(r);
            if (settings.dump() != null) {
                dump(settings.dump(), tOpen);
            }
            return r;
        } finally {
            closeAll();
            try {
                get(settings.upstream().resolve("/__gate/open"));
            } catch (IOException | InterruptedException e) {
                log("could not reopen the upstream gate: %s", e);
            }
        }
    }

    /** Opens connection i for every i in order; a failed connect is that request's error. */
    private int connectAll() {
        int ok = 0;
        int consecutiveFailures = 0;
        InetSocketAddress address = new InetSocketAddress(settings.proxy().getHost(), settings.proxy().getPort());
        for (int i = 0; i < settings.n(); i++) {
            if (System.nanoTime() > deadlineNanos || consecutiveFailures >= 50) {
                fail(i, "connect", "not attempted (" + (consecutiveFailures >= 50 ? "50 connects failed in a row" : "deadline") + ")");
                continue;
            }
            Socket socket = new Socket();
            try {
                socket.setTcpNoDelay(true);
                socket.connect(address, 10_000);
                sockets[i] = socket;
                ok++;
                consecutiveFailures = 0;
            } catch (IOException e) {
                closeQuietly(socket);
                fail(i, "connect", e.toString());
                consecutiveFailures++;
            }
            if ((i + 1) % 2000 == 0) {
                log("connecting: %d/%d", i + 1, settings.n());
            }
        }
        return ok;
    }

    /** Sends request i on connection i in seq order on this one thread, paced by -gap. */
    private int sendAll(ExecutorService readers, CountDownLatch allDone) {
        int sent = 0;
        String host = settings.proxy().getHost() + ":" + settings.proxy().getPort();
        long last = System.nanoTime() - settings.gapNanos();
        for (int i = 0; i < settings.n(); i++) {
            final int seq = i;
            if (sockets[i] == null) {
                allDone.countDown();
                continue;
            }
            // Paced from the previous send, never catching up in a burst after a stall.
            sleepUntil(last + settings.gapNanos());
            last = System.nanoTime();
            byte[] request = ("GET " + settings.path() + "?seq=" + i + "&delay=" + settings.delay() + "&gate=1 HTTP/1.1\r\n"
                    + "Host: " + host + "\r\nUser-Agent: queue-flood\r\nAccept: */*\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            try {
                OutputStream out = sockets[i].getOutputStream();
                out.write(request);
                out.flush();
                sent++;
            } catch (IOException e) {
                fail(i, "send", e.toString());
                allDone.countDown();
                continue;
            }
            readers.execute(() -> {
                try {
                    readResponse(seq);
                } finally {
                    completed.incrementAndGet();
                    allDone.countDown();
                }
            });
        }
        return sent;
    }

    private void readResponse(int i) {
        Socket socket = sockets[i];
        try {
            int left = (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
            socket.setSoTimeout(left);
            InputStream in = new BufferedInputStream(socket.getInputStream(), 4096);
            String statusLine = line(in);
            if (statusLine == null) {
                fail(i, "closed", "connection closed before a response");
                return;
            }
            String[] parts = statusLine.split(" ", 3);
            int code = parts.length >= 2 ? Integer.parseInt(parts[1]) : -1;
            long length = -1;
            long index = -1;
            String header;
            while ((header = line(in)) != null && !header.isEmpty()) {
                int colon = header.indexOf(':');
                if (colon <= 0) {
                    continue;
                }
                String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = header.substring(colon + 1).trim();
                switch (name) {
                    case "content-length" -> length = Long.parseLong(value);
                    case "x-served-index" -> index = Long.parseLong(value);
                    case "x-seq" -> {
                        if (Long.parseLong(value) != i) {
                            fail(i, "mixup", "connection " + i + " got the response for seq " + value);
                            return;
                        }
                    }
                    default -> { }
                }
            }
            StringBuilder body = new StringBuilder();
            if (length > 0) {
                byte[] buf = new byte[4096];
                long remaining = length;
                while (remaining > 0) {
                    int got = in.read(buf, 0, (int) Math.min(buf.length, remaining));
                    if (got < 0) {
                        fail(i, "short-body", "body ended after " + (length - remaining) + " of " + length + " bytes");
                        return;
                    }
                    if (body.length() < 200) {
                        body.append(new String(buf, 0, Math.min(got, 200), StandardCharsets.ISO_8859_1));
                    }
                    remaining -= got;
                }
            }
            doneNanos[i] = System.nanoTime();
            status[i] = code;
            servedIndex[i] = index;
            if (code != 200) {
                fail(i, "status-" + code, statusLine + " " + body.toString().replaceAll("\\s+", " ").trim());
            } else if (index < 0) {
                fail(i, "no-index", "200 without X-Served-Index");
            }
        } catch (SocketTimeoutException e) {
            fail(i, "timeout", "no response before the deadline");
        } catch (IOException | RuntimeException e) {
            fail(i, "io", e.toString());
        }
    }

    /**
     * Counts inversions of the upstream arrival order against seq order, over the requests that got
     * a 200: all of them, those with seq values at least {@code limit} apart ("far"), and the
     * largest distance between a request's arrival rank and its send rank.
     */
    private void order(Map<String, String> r) {
        List<Long> indexes = new ArrayList<>();
        for (int i = 0; i < settings.n(); i++) {
            if (status[i] == 200 && servedIndex[i] >= 0) {
                indexes.add(servedIndex[i]);
            }
        }
        long[] seqOrder = indexes.stream().mapToLong(Long::longValue).toArray();
        int m = seqOrder.length;
        long near = 0;
        int limit = settings.limit();
        for (int a = 0; a < m; a++) {
            for (int b = a + 1; b < Math.min(m, a + limit); b++) {
                if (seqOrder[a] > seqOrder[b]) {
                    near++;
                }
            }
        }
        // Ranks of the arrival indexes among the 200s: the upstream may also have served failures.
        long[] sorted = seqOrder.clone();
        Arrays.sort(sorted);
        long maxDisplacement = 0;
        long duplicates = 0;
        for (int a = 0; a < m; a++) {
            int rank = Arrays.binarySearch(sorted, seqOrder[a]);
            maxDisplacement = Math.max(maxDisplacement, Math.abs(rank - a));
            if (a > 0 && sorted[a] == sorted[a - 1]) {
                duplicates++;
            }
        }
        long total = countInversions(seqOrder.clone(), new long[m], 0, m);
        r.put("inversions", Long.toString(total));
        r.put("far_inversions", Long.toString(total - near));
        r.put("max_displacement", Long.toString(maxDisplacement));
        r.put("duplicate_indexes", Long.toString(duplicates));
    }

    /** Merge sort of a[from, to) counting pairs out of order. */
    static long countInversions(long[] a, long[] tmp, int from, int to) {
        if (to - from < 2) {
            return 0;
        }
        int mid = (from + to) >>> 1;
        long count = countInversions(a, tmp, from, mid) + countInversions(a, tmp, mid, to);
        int i = from;
        int j = mid;
        int k = from;
        while (i < mid && j < to) {
            if (a[i] <= a[j]) {
                tmp[k++] = a[i++];
            } else {
                count += mid - i;
                tmp[k++] = a[j++];
            }
        }
        while (i < mid) {
            tmp[k++] = a[i++];
        }
        while (j < to) {
            tmp[k++] = a[j++];
        }
        System.arraycopy(tmp, from, a, from, to - from);
        return count;
    }

    /**
     * Waits until the proxy has read every request sent to it (no connection to its port has unread
     * bytes in the kernel), bounded by -settle-max; then measures its CPU over -settle-min, during
     * which nothing happens but waiting.
     */
    private Settle waitForQueuedProxy() throws InterruptedException {
        long start = System.nanoTime();
        long maxEnd = Math.min(deadlineNanos, start + settings.settleMax().toNanos());
        int port = settings.proxy().getPort();
        TcpView view = TcpView.of(port);
        while (view.unread() > 0 && System.nanoTime() < maxEnd) {
            Thread.sleep(100);
            view = TcpView.of(port);
        }
        long read = System.nanoTime();
        if (view.unread() > 0) {
            log("after -settle-max %s the proxy still has %d connections with unread requests", settings.settleMax(), view.unread());
        }
        long cpu0 = cpuNanos(settings.proxyPid());
        long t0 = System.nanoTime();
        Thread.sleep(settings.settleMin().toMillis());
        long cpu1 = cpuNanos(settings.proxyPid());
        long t1 = System.nanoTime();
        double cpuPct = cpu0 < 0 || cpu1 < 0 ? -1 : 100.0 * (cpu1 - cpu0) / (t1 - t0);
        return new Settle(read - start, view.unread(), TcpView.of(port).established(), cpuPct);
    }

    /** How long reading took, what was left unread, connections open at the proxy, its CPU meanwhile (% of a core). */
    record Settle(long readNanos, int unread, int established, double cpuPct) {
    }

    /** The proxy's side of its TCP connections, from /proc/net/tcp and tcp6 (Linux). */
    record TcpView(int established, int unread) {
        static TcpView of(int localPort) {
            int established = 0;
            int unread = 0;
            String portHex = String.format(Locale.ROOT, ":%04X", localPort);
            for (String file : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
                List<String> lines;
                try {
                    lines = Files.readAllLines(Path.of(file));
                } catch (IOException e) {
                    continue;
                }
                for (int k = 1; k < lines.size(); k++) {
                    String[] f = lines.get(k).trim().split("\\s+");
                    // sl local rem st tx_queue:rx_queue ...; 01 = ESTABLISHED
                    if (f.length < 5 || !f[1].endsWith(portHex) || !f[3].equals("01")) {
                        continue;
                    }
                    established++;
                    String rx = f[4].substring(f[4].indexOf(':') + 1);
                    if (Long.parseLong(rx, 16) > 0) {
                        unread++;
                    }
                }
            }
            return new TcpView(established, unread);
        }
    }

    /** User + system CPU of a process from /proc (Linux, USER_HZ of 100); -1 when unknown. */
    static long cpuNanos(long pid) {
        if (pid <= 0) {
            return -1;
        }
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Whether the proxy answers its health check within 5 s once the flood is over. */
    private String proxyHealth() {
        try {
            get(settings.proxy().resolve("/__shaper/health"));
            return "ok";
        } catch (IOException e) {
            return "failed";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /**
     * The proxy JVM's heap from {@code jstat -gc} of the same JDK (bounded to 15 s): used and
     * committed MB, full GCs so far. All -1 when jstat is missing or the JVM does not answer.
     */
    record Heap(long usedMb, long committedMb, long fullGcs) {
        static Heap of(long pid) {
            Heap unknown = new Heap(-1, -1, -1);
            if (pid <= 0) {
                return unknown;
            }
            try {
                Path jstat = Path.of("/proc/" + pid + "/exe").toRealPath().resolveSibling("jstat");
                if (!Files.isExecutable(jstat)) {
                    return unknown;
                }
                Process p = new ProcessBuilder(jstat.toString(), "-gc", Long.toString(pid)).redirectErrorStream(true).start();
                if (!p.waitFor(15, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    return unknown;
                }
                String[] lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim().split("\n");
                if (lines.length < 2) {
                    return unknown;
                }
                String[] names = lines[0].trim().split("\\s+");
                String[] values = lines[1].trim().split("\\s+");
                Map<String, Double> v = new LinkedHashMap<>();
                for (int k = 0; k < Math.min(names.length, values.length); k++) {
                    v.put(names[k], values[k].equals("-") ? 0 : Double.parseDouble(values[k]));
                }
                double used = v.getOrDefault("S0U", 0.0) + v.getOrDefault("S1U", 0.0) + v.getOrDefault("EU", 0.0) + v.getOrDefault("OU", 0.0);
                double committed = v.getOrDefault("S0C", 0.0) + v.getOrDefault("S1C", 0.0) + v.getOrDefault("EC", 0.0) + v.getOrDefault("OC", 0.0);
                return new Heap(Math.round(used / 1024), Math.round(committed / 1024), Math.round(v.getOrDefault("FGC", -1.0)));
            } catch (IOException | RuntimeException e) {
                return unknown;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return unknown;
            }
        }

        void put(Map<String, String> r, String when) {
            r.put("heap_" + when + "_used_mb", Long.toString(usedMb));
            r.put("heap_" + when + "_committed_mb", Long.toString(committedMb));
            r.put("full_gcs_" + when, Long.toString(fullGcs));
        }
    }

    /** VmRSS and VmHWM of a process in kB (-1 when unknown). */
    record Rss(long rssKb, long hwmKb) {
        static Rss of(long pid) {
            if (pid <= 0) {
                return new Rss(-1, -1);
            }
            long rss = -1;
            long hwm = -1;
            try {
                for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                    if (l.startsWith("VmRSS:")) {
                        rss = Long.parseLong(l.replaceAll("[^0-9]", ""));
                    } else if (l.startsWith("VmHWM:")) {
                        hwm = Long.parseLong(l.replaceAll("[^0-9]", ""));
                    }
                }
            } catch (IOException | RuntimeException e) {
                // gone or unreadable: reported as -1
            }
            return new Rss(rss, hwm);
        }

        void put(Map<String, String> r, String when) {
            r.put("rss_" + when + "_kb", Long.toString(rssKb));
            r.put("hwm_" + when + "_kb", Long.toString(hwmKb));
        }

        String rssText() {
            return rssKb < 0 ? "?" : rssKb / 1024 + " MB";
        }

        String hwmText() {
            return hwmKb < 0 ? "?" : hwmKb / 1024 + " MB";
        }
    }

    /** One line per request: seq, HTTP status, upstream arrival index, ms from the gate opening to its answer, error. */
    private void dump(Path file, long tOpen) throws IOException {
        StringBuilder sb = new StringBuilder("seq,status,served_index,answered_ms,error\n");
        for (int i = 0; i < settings.n(); i++) {
            sb.append(i).append(',').append(status[i]).append(',').append(servedIndex[i]).append(',')
                    .append(doneNanos[i] == 0 ? "" : fmt((doneNanos[i] - tOpen) / 1e6)).append(',')
                    .append(errors[i] == null ? "" : '"' + errors[i].replace('"', '\'') + '"').append('\n');
        }
        Files.writeString(file, sb.toString());
    }

    private void errorSummary(Map<String, String> r) {
        StringBuilder kinds = new StringBuilder();
        errorKinds.forEach((k, v) -> kinds.append(kinds.isEmpty() ? "" : ",").append(k).append(':').append(v.get()));
        r.put("error_kinds", kinds.isEmpty() ? "none" : kinds.toString());
        int shown = 0;
        for (int i = 0; i < settings.n() && shown < MAX_ERRORS_SHOWN; i++) {
            if (errors[i] != null) {
                System.out.println("FLOOD_ERROR seq=" + i + " " + errors[i]);
                shown++;
            }
        }
    }

    private void fail(int i, String kind, String message) {
        if (errors[i] == null) {
            errors[i] = kind + ": " + message;
            errorKinds.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
        }
    }

    private long lastDone() {
        long last = 0;
        for (long t : doneNanos) {
            last = Math.max(last, t);
        }
        return last == 0 ? System.nanoTime() : last;
    }

    private void closeAll() {
        for (int i = 0; i < sockets.length; i++) {
            if (sockets[i] != null) {
                closeQuietly(sockets[i]);
            }
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing after the measurement: nothing to report
        }
    }

    /** One CRLF-terminated line (ISO-8859-1), null at end of stream. */
    private static String line(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                int len = sb.length();
                return len > 0 && sb.charAt(len - 1) == '\r' ? sb.substring(0, len - 1) : sb.toString();
            }
            if (sb.length() > 16 * 1024) {
                throw new IOException("header line over 16 KiB");
            }
            sb.append((char) c);
        }
        return sb.isEmpty() ? null : sb.toString();
    }

    private static String get(URI uri) throws IOException, InterruptedException {
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            HttpResponse<String> res = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (res.statusCode() != 200) {
                throw new IOException("GET " + uri + ": " + res.statusCode());
            }
            return res.body();
        }
    }

    private static long statValue(String stats, String key) {
        for (String kv : stats.trim().split("\\s+")) {
            if (kv.startsWith(key + "=")) {
                return Long.parseLong(kv.substring(key.length() + 1));
            }
        }
        return -1;
    }

    private static void sleepUntil(long deadline) {
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private static void log(String format, Object... args) {
        System.err.printf("[queue-flood] " + format + "%n", args);
    }

    static Settings parse(String[] args) {
        Map<String, String> a = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i].replaceFirst("^--?", "");
            if (flag.equals("h") || flag.equals("help")) {
                System.out.println("usage: QueueFlood -proxy URL -upstream URL [-n 10000] [-path /queue/1k] [-delay 5ms]"
                        + " [-gap 1ms] [-limit 4] [-proxy-pid PID] [-timeout 300s] [-settle-min 2s] [-settle-max 60s] [-stall 30s] [-dump FILE.csv]");
                System.exit(0);
            }
            if (i + 1 >= args.length) {
                usage(args[i] + " needs a value");
            }
            a.put(flag, args[++i]);
        }
        for (String k : a.keySet()) {
            if (!List.of("proxy", "upstream", "n", "path", "delay", "gap", "limit", "proxy-pid", "timeout", "settle-min",
                    "settle-max", "stall", "dump").contains(k)) {
                usage("unknown flag -" + k);
            }
        }
        if (!a.containsKey("proxy") || !a.containsKey("upstream")) {
            usage("-proxy and -upstream are required");
        }
        int n = Integer.parseInt(a.getOrDefault("n", "10000"));
        int limit = Integer.parseInt(a.getOrDefault("limit", "4"));
        if (n < 1 || n > 60_000 || limit < 1) {
            usage("-n must be 1..60000 and -limit >= 1");
        }
        String path = a.getOrDefault("path", "/queue/1k");
        if (!path.startsWith("/") || path.contains("?")) {
            usage("-path " + path + " (expected an absolute path without a query)");
        }
        return new Settings(URI.create(a.get("proxy")), URI.create(a.get("upstream")), n, path,
                a.getOrDefault("delay", "5ms"), duration(a.getOrDefault("gap", "1ms")).toNanos(), limit,
                Long.parseLong(a.getOrDefault("proxy-pid", "0")), duration(a.getOrDefault("timeout", "300s")),
                duration(a.getOrDefault("settle-min", "2s")), duration(a.getOrDefault("settle-max", "60s")), duration(a.getOrDefault("stall", "30s")),
                a.containsKey("dump") ? Path.of(a.get("dump")) : null);
    }

    /** A Go duration (100us, 5ms, 2s, the proxy's own parser); anything else ends the run with usage. */
    static Duration duration(String text) {
        try {
            return GoDuration.parse(text);
        } catch (IllegalArgumentException e) {
            usage("duration " + text + " (expected e.g. 100us, 5ms, 2s)");
            return Duration.ZERO;
        }
    }

    private static void usage(String message) {
        System.err.println("QueueFlood: " + message);
        System.exit(2);
    }
}
