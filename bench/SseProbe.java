///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 21+
//JAVA_OPTIONS -Xms32m -Xmx128m
//SOURCES ../lib/shaper/config/GoDuration.java

import shaper.config.GoDuration;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Measures per-event delay of an SSE stream from {@code bench/FakeUpstream.java}: for each event,
 * arrival time (epoch µs, taken the moment the socket read that completed the event returned)
 * minus the {@code sent_us} the upstream stamped into it. Upstream and probe share the machine's
 * wall clock, so the difference is the time the bytes spent in flight through the path under test.
 *
 * <p>A raw socket with its own chunked decoder keeps client-side buffering out of the number.
 * Each target is first warmed, unmeasured, so neither the path under test nor the probe is measured
 * cold: {@code -warmup-streams N} streams of {@code -warmup-stream-events M} events
 * {@code -warmup-paced-interval} (1ms) apart, then one stream of {@code -warmup N} events
 * {@code -warmup-interval} apart. A JVM compiles a path only once it has run it often, and a
 * stream has three: the start (request, head, first event) runs once per stream, the wait for the
 * next event only when events are paced (back to back, an event is always waiting when the reader
 * asks), and the per-event copy. Measured on the proxy (PrintCompilation): with a few warm-up
 * streams every measured stream's first event paid 1-4 ms, and the copy loop's optimised compile
 * ran during the measured streams, 50-70 ms of compiler CPU on a two-core machine.
 *
 * <pre>
 * SseProbe [-events 50] [-interval 100ms] [-pad 0] [-warmup 100] [-warmup-interval 2ms] [-warmup-streams 0] [-warmup-stream-events 1] [-warmup-paced-interval 1ms] [-rounds 1] [-together] [-raw DIR] label=http://127.0.0.1:PORT ...
 * </pre>
 *
 * With {@code -rounds R} every target streams R times, the targets in an order rotated each round,
 * and its percentiles are taken over all R×N events (the p99 of one 100-event stream is its second
 * worst event: one scheduling hiccup of a shared machine decides it). With {@code -together} a
 * round streams all targets at once, their events interleaved (see {@link #streamTogether}).
 *
 * Prints per target: {@code SSE_RESULT label=L events=N p50_us=.. p90_us=.. p99_us=.. min_us=.. max_us=.. mean_us=.. round_p99_us=P1,P2,..} (each round's own p99 after the pooled figures).
 * Percentiles are nearest-rank. Exits 1 when a stream fails or delivers fewer events than asked.
 */
public class SseProbe {
    private static final int READ_TIMEOUT_MS = 10_000;

    public static void main(String[] args) throws Exception {
        int events = 50;
        String interval = "100ms";
        int pad = 0;
        int warmup = 100;
        String warmupInterval = "2ms";
        int warmupStreamEvents = 1;
        String warmupPacedInterval = "1ms";
        int warmupStreams = 0;
        boolean together = false;
        int rounds = 1;
        String rawDir = null;
        Map<String, URI> targets = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-events" -> events = Integer.parseInt(args[++i]);
                case "-interval" -> interval = args[++i];
                case "-pad" -> pad = Integer.parseInt(args[++i]);
                case "-warmup" -> warmup = Integer.parseInt(args[++i]);
                case "-warmup-interval" -> warmupInterval = args[++i];
                case "-warmup-stream-events" -> warmupStreamEvents = Integer.parseInt(args[++i]);
                case "-warmup-paced-interval" -> warmupPacedInterval = args[++i];
                case "-warmup-streams" -> warmupStreams = Integer.parseInt(args[++i]);
                case "-together" -> together = true;
                case "-raw" -> rawDir = args[++i];
                case "-rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> {
                    int eq = a.indexOf('=');
                    if (a.startsWith("-") || eq <= 0) {
                        System.err.println("usage: SseProbe [-events N] [-interval D] [-pad B] [-warmup N] [-warmup-interval D] [-warmup-streams N] [-warmup-stream-events M] [-warmup-paced-interval D] [-rounds R] [-together] [-raw DIR] label=URL ...");
                        System.exit(2);
                    }
                    targets.put(a.substring(0, eq), URI.create(a.substring(eq + 1)));
                }
            }
        }
        if (targets.isEmpty() || events < 1 || rounds < 1) {
            System.err.println("need at least one label=URL target, -events >= 1 and -rounds >= 1");
            System.exit(2);
        }
        List<String> labels = new ArrayList<>(targets.keySet());
        Map<String, List<long[]>> runs = new LinkedHashMap<>();
        Map<String, String> failed = new java.util.concurrent.ConcurrentHashMap<>();
        Warmup warm = new Warmup(warmupStreams, warmupStreamEvents, warmupPacedInterval, warmup, warmupInterval, pad);
        if (together) {
            streamTogether(targets, labels, rounds, events, interval, pad, warm, runs, failed);
        } else {
            streamInTurn(targets, labels, rounds, events, interval, pad, warm, runs, failed);
        }
        boolean ok = failed.isEmpty();
        for (String label : labels) {
            if (failed.containsKey(label)) {
                System.out.println("SSE_RESULT label=" + label + " error=" + failed.get(label));
                continue;
            }
            long[] delays = runs.get(label).stream().flatMapToLong(Arrays::stream).toArray();
            StringBuilder perRound = new StringBuilder();
            for (long[] run : runs.get(label)) {
                long[] sorted = run.clone();
                Arrays.sort(sorted);
                perRound.append(perRound.isEmpty() ? "" : ",").append(rank(sorted, 99));
            }
            System.out.println(summary(label, delays) + " round_p99_us=" + perRound);
            if (rawDir != null) {
                writeRaw(rawDir, label, delays);
            }
        }
        System.exit(ok ? 0 : 1);
    }

    /** The unmeasured streams each target gets before its first measured one. */
    record Warmup(int streams, int streamEvents, String pacedInterval, int events, String interval, int pad) {
        void run(URI target) throws IOException {
            for (int w = 0; w < streams; w++) {
                stream(target, streamEvents, pacedInterval, pad);
            }
            if (events > 0) {
                stream(target, events, interval, pad);
            }
        }
    }

    /**
     * Round r runs the targets one after another, in an order rotated by r, so a hiccup of the
     * machine at one moment of the run is spread over the targets instead of landing on whichever
     * runs then.
     */
    static void streamInTurn(Map<String, URI> targets, List<String> labels, int rounds, int events, String interval, int pad,
                             Warmup warm, Map<String, List<long[]>> runs, Map<String, String> failed) {
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < labels.size(); k++) {
                String label = labels.get((k + r) % labels.size());
                if (failed.containsKey(label)) {
                    continue;
                }
                try {
                    if (r == 0) {
                        warm.run(targets.get(label));
                    }
                    runs.computeIfAbsent(label, l -> new ArrayList<>()).add(stream(targets.get(label), events, interval, pad));
                } catch (IOException | RuntimeException e) {
                    failed.put(label, e.toString().replace(' ', '_'));
                }
            }
        }
    }

    /**
     * Every round streams all targets at once, each stream started a fraction of the interval after
     * the previous one (the order rotated by round), so their events never coincide while every
     * target lives through the same moments of the machine: a stall of a few seconds lands on all of
     * them, not on whichever streamed then. Warm-ups run first, one target after another.
     */
    static void streamTogether(Map<String, URI> targets, List<String> labels, int rounds, int events, String interval, int pad,
                               Warmup warm, Map<String, List<long[]>> runs, Map<String, String> failed) throws InterruptedException {
        for (String label : labels) {
            try {
                warm.run(targets.get(label));
            } catch (IOException | RuntimeException e) {
                failed.put(label, e.toString().replace(' ', '_'));
            }
        }
        long step = GoDuration.parse(interval).toNanos() / labels.size();
        for (int r = 0; r < rounds; r++) {
            Map<String, long[]> got = new java.util.concurrent.ConcurrentHashMap<>();
            List<Thread> streams = new ArrayList<>();
            long start = System.nanoTime();
            for (int k = 0; k < labels.size(); k++) {
                String label = labels.get(k);
                long at = start + ((k + r) % labels.size()) * step;
                if (failed.containsKey(label)) {
                    continue;
                }
                streams.add(Thread.ofPlatform().name("stream-" + label).start(() -> {
                    try {
                        for (long left; (left = at - System.nanoTime()) > 0; ) {
                            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
                        }
                        got.put(label, stream(targets.get(label), events, interval, pad));
                    } catch (IOException | RuntimeException | InterruptedException e) {
                        failed.put(label, e.toString().replace(' ', '_'));
                    }
                }));
            }
            for (Thread t : streams) {
                t.join(); // bounded: every read of a stream times out after READ_TIMEOUT_MS
            }
            for (String label : labels) {
                if (got.containsKey(label)) {
                    runs.computeIfAbsent(label, l -> new ArrayList<>()).add(got.get(label));
                } else {
                    failed.putIfAbsent(label, "stream_thread_ended_without_a_result"); // an Error: the report must not lack the target silently
                }
            }
        }
    }

    /** Streams one /sse response and returns each event's delay in µs, in arrival order. */
    static long[] stream(URI base, int n, String interval, int pad) throws IOException {
        String path = "/sse?n=" + n + "&interval=" + interval + (pad > 0 ? "&pad=" + pad : "");
        int port = base.getPort() < 0 ? 80 : base.getPort();
        // A target whose path ends in /messages is a transcoding proxy: one streaming Messages
        // request, n and interval in its query (the proxy must allow them).
        // A target ending in /responses is a Responses client on a transcoding proxy, the same way.
        boolean responses = base.getPath() != null && base.getPath().endsWith("/responses");
        String body = responses ? "{\"model\":\"bench\",\"max_output_tokens\":16,\"stream\":true,\"input\":\"go\"}"
                : "{\"model\":\"bench\",\"max_tokens\":16,\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"go\"}]}";
        String head = base.getPath() != null && (base.getPath().endsWith("/messages") || responses)
                ? "POST " + base.getPath() + path.substring("/sse".length()) + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + port + "\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + body.length() + "\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n" + body
                : "GET " + path + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + port + "\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n";
        try (Socket socket = new Socket()) {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(READ_TIMEOUT_MS);
            socket.connect(new InetSocketAddress(base.getHost(), port), READ_TIMEOUT_MS);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            EventClock clock = new EventClock(n);
            new ResponseReader(socket.getInputStream(), clock).readAll();
            if (clock.count() != n) {
                throw new IOException("received " + clock.count() + " of " + n + " events");
            }
            return clock.delays();
        }
    }

    static long epochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    static String summary(String label, long[] delays) {
        long[] s = delays.clone();
        Arrays.sort(s);
        long sum = 0;
        for (long d : s) {
            sum += d;
        }
        return String.format(Locale.ROOT, "SSE_RESULT label=%s events=%d p50_us=%d p90_us=%d p99_us=%d min_us=%d max_us=%d mean_us=%d",
                label, s.length, rank(s, 50), rank(s, 90), rank(s, 99), s[0], s[s.length - 1], sum / s.length);
    }

    /** Nearest-rank percentile of a sorted array. */
    static long rank(long[] sorted, int p) {
        int idx = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, idx))];
    }

    private static void writeRaw(String dir, String label, long[] delays) throws IOException {
        StringBuilder sb = new StringBuilder("# event delay_us\n");
        for (int i = 0; i < delays.length; i++) {
            sb.append(i + 1).append(' ').append(delays[i]).append('\n');
        }
        java.nio.file.Files.writeString(java.nio.file.Path.of(dir, "sse-" + label + ".txt"), sb);
    }

    /** Turns decoded body bytes into events, stamping each with the arrival time of its last read. */
    static final class EventClock {
        private final List<Long> delays;
        private final StringBuilder line = new StringBuilder();
        private long sentUs = -1;

        EventClock(int expected) {
            delays = new ArrayList<>(expected);
        }

        void accept(byte[] b, int off, int len, long arrivedUs) {
            for (int i = off; i < off + len; i++) {
                char c = (char) (b[i] & 0xff);
                if (c != '\n') {
                    line.append(c);
                    continue;
                }
                int l = line.length();
                if (l > 0 && line.charAt(l - 1) == '\r') {
                    line.setLength(l - 1);
                }
                if (line.isEmpty()) {
                    if (sentUs >= 0) {
                        delays.add(arrivedUs - sentUs);
                    }
                    sentUs = -1;
                } else if (line.indexOf("data:") == 0) {
                    sentUs = sentMicros(line);
                }
                line.setLength(0);
            }
        }

        private static long sentMicros(CharSequence data) {
            String s = data.toString();
            if (s.contains("\"type\":\"response.") && !s.contains("\"type\":\"response.output_text.delta\"")) {
                return -1; // a Responses done event or terminal repeats earlier text: only deltas are timed
            }
            // {"sent_us":T} from /sse, or the text "sent_us=T" of a transcoded Messages text_delta
            int at = s.indexOf("\"sent_us\":");
            int from = at + "\"sent_us\":".length();
            if (at < 0) {
                at = s.indexOf("sent_us=");
                from = at + "sent_us=".length();
            }
            if (at < 0) {
                return -1;
            }
            int to = from;
            while (to < s.length() && Character.isDigit(s.charAt(to))) {
                to++;
            }
            return Long.parseLong(s.substring(from, to));
        }

        int count() {
            return delays.size();
        }

        long[] delays() {
            return delays.stream().mapToLong(Long::longValue).toArray();
        }
    }

    /** Reads status and headers, then the body (chunked, Content-Length or until close) into the clock. */
    static final class ResponseReader {
        private final InputStream in;
        private final EventClock clock;
        private final byte[] buf = new byte[64 * 1024];
        private int pos;
        private int end;
        private long arrivedUs;

        ResponseReader(InputStream in, EventClock clock) {
            this.in = in;
            this.clock = clock;
        }

        void readAll() throws IOException {
            String status = line();
            if (!status.startsWith("HTTP/1.") || !status.contains(" 200")) {
                throw new IOException("unexpected status: " + status);
            }
            boolean chunked = false;
            long length = -1;
            for (String h = line(); !h.isEmpty(); h = line()) {
                String lower = h.toLowerCase(Locale.ROOT);
                if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                } else if (lower.startsWith("content-length:")) {
                    length = Long.parseLong(lower.substring("content-length:".length()).trim());
                }
            }
            if (chunked) {
                for (long size = chunkSize(); size > 0; size = chunkSize()) {
                    body(size);
                    if (!line().isEmpty()) {
                        throw new IOException("chunk not followed by CRLF");
                    }
                }
            } else {
                body(length);
            }
        }

        /** Passes {@code n} body bytes (all until close when negative) to the clock. */
        private void body(long n) throws IOException {
            while (n != 0) {
                if (pos == end && !fill()) {
                    if (n < 0) {
                        return;
                    }
                    throw new IOException("body ended early");
                }
                int take = (int) (n < 0 ? end - pos : Math.min(n, end - pos));
                clock.accept(buf, pos, take, arrivedUs);
                pos += take;
                if (n > 0) {
                    n -= take;
                }
            }
        }

        private long chunkSize() throws IOException {
            String l = line();
            int semi = l.indexOf(';');
            return Long.parseLong((semi < 0 ? l : l.substring(0, semi)).trim(), 16);
        }

        private String line() throws IOException {
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (pos == end && !fill()) {
                    throw new IOException("connection closed mid-line");
                }
                char c = (char) (buf[pos++] & 0xff);
                if (c == '\n') {
                    int l = sb.length();
                    return l > 0 && sb.charAt(l - 1) == '\r' ? sb.substring(0, l - 1) : sb.toString();
                }
                sb.append(c);
            }
        }

        private boolean fill() throws IOException {
            int n = in.read(buf);
            arrivedUs = epochMicros();
            if (n < 0) {
                return false;
            }
            pos = 0;
            end = n;
            return true;
        }
    }
}
