///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 21+
//JAVA_OPTIONS -Xms64m -Xmx256m -XX:+UseParallelGC
//SOURCES ../lib/shaper/config/GoDuration.java

import shaper.config.GoDuration;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The benchmark's upstream: as fast as a JVM can answer, so the rows measure the proxies.
 *
 * <ul>
 *   <li>{@code GET /1k}, and any path ending in {@code /1k} ({@code /limited/1k}): 200, 1024-byte
 *       body with Content-Length, keep-alive. {@code ?delay=D} (Go duration, at most 60 s) answers
 *       after D; {@code ?seq=I} adds {@code X-Seq: I} and {@code X-Served-Index: K}, where K counts
 *       the seq-carrying requests in the order they arrived here (0, 1, 2, ...), so a client can
 *       tell in which order its requests reached the upstream. {@code ?gate=1} holds the request
 *       (after taking its index, before the delay) while the gate is closed, at most 120 s.</li>
 *   <li>{@code GET /__gate/close}, {@code GET /__gate/open}: close or open the gate (open at start),
 *       so a benchmark can keep the first requests in flight until every queued one has arrived.</li>
 *   <li>{@code GET /sse?n=N&interval=D[&pad=B]}: 200 {@code text/event-stream}, chunked, N events
 *       D apart (Go duration: {@code 100ms}, {@code 5ms}, {@code 250us}, {@code 1s}); each event's
 *       data is {@code {"i":K,"sent_us":T}} where T is the epoch microsecond just before the write,
 *       so a client on the same machine computes per-event delay as arrival − T. {@code pad} adds
 *       B filler bytes to each event, like a model's token payload.</li>
 *   <li>{@code POST /v1/traces}, {@code POST /v1/metrics}: 200 with no body (an OTLP/HTTP sink for the tracing rows);</li>
 *   <li>{@code POST .../chat/completions}: a fixed Chat Completions answer (JSON, about 400 bytes);
 *       {@code POST /sse/.../chat/completions?n=N&interval=D}: a Chat Completions stream of N text
 *       deltas D apart whose content is {@code sent_us=T}, then a finish chunk, usage and
 *       {@code [DONE]}; {@code POST .../responses}: a Responses object of similar size;
 *       {@code POST .../messages}: the same answer as an Anthropic message, so a
 *       transcoded route and a passthrough route return the same content. Request bodies are skipped.</li>
 *   <li>{@code GET /__stats}: {@code connections=C requests=R inflight_now=N inflight_peak=P seq_served=S},
 *       counted since start (this request included in C and R), so a benchmark can tell a pooling
 *       proxy from one that reconnects per request. In-flight counts requests other than
 *       {@code /__stats} between reading the head and flushing the response; the peak is the most
 *       ever in flight at once: behind a proxy with a limit of N it must never exceed N.</li>
 *   <li>Anything else: 404; a method other than GET/HEAD: 405.</li>
 * </ul>
 *
 * One platform thread per connection: the benchmark opens at most a few hundred connections, and a
 * blocking read on a platform thread is the shortest path from the kernel to the response.
 * Pipelined requests are answered in order. Binds loopback only.
 *
 * <p>Usage: {@code ./jbang bench/FakeUpstream.java -port 0}; prints
 * {@code fake-upstream listening on 127.0.0.1:PORT} once ready.
 */
public class FakeUpstream {
    private static final int MAX_HEAD = 16 * 1024;
    private static final int MAX_EVENTS = 1_000_000;
    private static final long MAX_INTERVAL_NANOS = 60_000_000_000L;
    private static final long GATE_MAX_SECONDS = 120;
    private static final byte[] CRLFCRLF = {'\r', '\n', '\r', '\n'};
    private static final byte[] ONE_K_HEAD = ascii("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 1024\r\n");
    private static final byte[] ONE_K_BODY = oneKiB();
    private static final byte[] CRLF = ascii("\r\n");
    private static final byte[] CONNECTION_CLOSE = ascii("Connection: close\r\n\r\n");

    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong seqServed = new AtomicLong();
    private final AtomicInteger inflight = new AtomicInteger();
    private final AtomicInteger inflightPeak = new AtomicInteger();
    /** Open while its count is zero; closing swaps in a fresh latch. */
    private final AtomicReference<CountDownLatch> gate = new AtomicReference<>(new CountDownLatch(0));

    public static void main(String[] args) throws IOException {
        String host = "127.0.0.1";
        int port = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-port", "--port" -> port = Integer.parseInt(value(args, ++i, "-port"));
                case "-host", "--host" -> host = value(args, ++i, "-host");
                case "-h", "--help" -> {
                    System.out.println("usage: FakeUpstream [-host 127.0.0.1] [-port 0]");
                    return;
                }
                default -> {
                    System.err.println("unknown argument: " + args[i]);
                    System.exit(2);
                }
            }
        }
        if (!InetAddress.getByName(host).isLoopbackAddress()) {
            System.err.println("-host " + host + ": the benchmark upstream binds loopback only");
            System.exit(2);
        }
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(host, port), 4096);
        System.out.println("fake-upstream listening on " + host + ":" + server.getLocalPort());
        System.out.flush();
        new FakeUpstream().acceptForever(server);
    }

    private void acceptForever(ServerSocket server) throws IOException {
        ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().daemon().name("conn-", 0).factory());
        while (true) {
            Socket socket = server.accept();
            connections.incrementAndGet();
            threads.execute(() -> serve(socket));
        }
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            System.err.println(flag + " needs a value");
            System.exit(2);
        }
        return args[i];
    }

    private void serve(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream in = socket.getInputStream();
            OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 16 * 1024);
            RequestReader reader = new RequestReader(in);
            Request req;
            while ((req = reader.next()) != null) {
                if (!respond(req, out)) {
                    break;
                }
            }
        } catch (SocketException e) {
            // The client went away (reset or closed mid-response): nothing to answer.
        } catch (IOException e) {
            System.err.println("connection error: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writes the response; false when the connection must close afterwards. */
    private boolean respond(Request req, OutputStream out) throws IOException, InterruptedException {
        requests.incrementAndGet();
        if (req.path.equals("/__stats")) {
            simple(out, 200, "OK", "connections=" + connections.get() + " requests=" + requests.get()
                    + " inflight_now=" + inflight.get() + " inflight_peak=" + inflightPeak.get()
                    + " seq_served=" + seqServed.get() + "\n", req.keepAlive);
            return req.keepAlive;
        }
        if (req.path.equals("/__gate/close")) {
            gate.updateAndGet(g -> g.getCount() == 0 ? new CountDownLatch(1) : g);
            simple(out, 200, "OK", "gate closed\n", req.keepAlive);
            return req.keepAlive;
        }
        if (req.path.equals("/__gate/open")) {
            gate.get().countDown();
            simple(out, 200, "OK", "gate open\n", req.keepAlive);
            return req.keepAlive;
        }
        inflightPeak.accumulateAndGet(inflight.incrementAndGet(), Math::max);
        try {
            return route(req, out);
        } finally {
            inflight.decrementAndGet();
        }
    }

    private boolean route(Request req, OutputStream out) throws IOException, InterruptedException {
        boolean head = req.method.equals("HEAD");
        if (req.method.equals("POST") && req.path.endsWith("/chat/completions")) {
            return req.path.startsWith("/sse/") ? chatStream(req, out) : fixed(out, CHAT_ANSWER, req.keepAlive);
        } else if (req.method.equals("POST") && req.path.endsWith("/messages")) {
            return fixed(out, MESSAGES_ANSWER, req.keepAlive);
        } else if (req.method.equals("POST") && req.path.endsWith("/responses")) {
            return fixed(out, RESPONSES_ANSWER, req.keepAlive);
        } else if (req.method.equals("POST") && (req.path.equals("/v1/traces") || req.path.equals("/v1/metrics"))) {
            simple(out, 200, "OK", "", req.keepAlive); // an OTLP/HTTP sink for the tracing section
        } else if (!req.method.equals("GET") && !head) {
            simple(out, 405, "Method Not Allowed", "method not allowed\n", req.keepAlive);
        } else if (req.path.endsWith("/1k")) {
            return oneK(req, out, head);
        } else if (req.path.equals("/sse")) {
            return sse(req, out, head);
        } else {
            simple(out, 404, "Not Found", "not found: " + req.path + "\n", req.keepAlive);
        }
        return req.keepAlive;
    }

    private boolean oneK(Request req, OutputStream out, boolean head) throws IOException, InterruptedException {
        if (req.query.isEmpty()) {
            // The hot path of the throughput rows: no parsing, no allocation.
            out.write(ONE_K_HEAD);
        } else {
            String seq = req.query.get("seq");
            long delayNanos;
            try {
                delayNanos = GoDuration.parse(req.query.getOrDefault("delay", "0s")).toNanos();
                if (delayNanos < 0 || delayNanos > MAX_INTERVAL_NANOS || (seq != null && !seq.matches("[0-9]{1,18}"))) {
                    throw new IllegalArgumentException("out of range");
                }
            } catch (IllegalArgumentException e) {
                simple(out, 400, "Bad Request", "bad parameters: " + e.getMessage() + "\n", req.keepAlive);
                return req.keepAlive;
            }
            // The arrival index is taken before the delay: it records the order requests reached us.
            long served = seq == null ? -1 : seqServed.getAndIncrement();
            if ("1".equals(req.query.get("gate")) && !gate.get().await(GATE_MAX_SECONDS, TimeUnit.SECONDS)) {
                simple(out, 503, "Service Unavailable", "gate stayed closed for " + GATE_MAX_SECONDS + " s\n", req.keepAlive);
                return req.keepAlive;
            }
            sleepUntil(System.nanoTime() + delayNanos);
            out.write(ONE_K_HEAD);
            if (seq != null) {
                out.write(ascii("X-Seq: " + seq + "\r\nX-Served-Index: " + served + "\r\n"));
            }
        }
        out.write(req.keepAlive ? CRLF : CONNECTION_CLOSE);
        if (!head) {
            out.write(ONE_K_BODY);
        }
        out.flush();
        return req.keepAlive;
    }

    private static boolean sse(Request req, OutputStream out, boolean head) throws IOException, InterruptedException {
        int n;
        long intervalNanos;
        int pad;
        try {
            n = Integer.parseInt(req.query.getOrDefault("n", "50"));
            intervalNanos = GoDuration.parse(req.query.getOrDefault("interval", "100ms")).toNanos();
            pad = Integer.parseInt(req.query.getOrDefault("pad", "0"));
            if (n < 0 || n > MAX_EVENTS || intervalNanos < 0 || intervalNanos > MAX_INTERVAL_NANOS || pad < 0 || pad > 65_536) {
                throw new IllegalArgumentException("out of range");
            }
        } catch (IllegalArgumentException e) {
            simple(out, 400, "Bad Request", "bad sse parameters: " + e.getMessage() + "\n", req.keepAlive);
            return req.keepAlive;
        }
        out.write(ascii("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                + "Transfer-Encoding: chunked\r\n" + (req.keepAlive ? "" : "Connection: close\r\n") + "\r\n"));
        out.flush();
        if (head) {
            return req.keepAlive;
        }
        String filler = pad == 0 ? "" : ",\"pad\":\"" + "x".repeat(pad) + "\"";
        long start = System.nanoTime();
        for (int i = 1; i <= n; i++) {
            // An absolute schedule keeps the stream from drifting by each event's write time.
            sleepUntil(start + (i - 1) * intervalNanos);
            long sentUs = epochMicros();
            byte[] event = ascii("id: " + i + "\ndata: {\"i\":" + i + ",\"sent_us\":" + sentUs + filler + "}\n\n");
            out.write(ascii(Integer.toHexString(event.length) + "\r\n"));
            out.write(event);
            out.write(CRLF);
            out.flush();
        }
        out.write(ascii("0\r\n\r\n"));
        out.flush();
        return req.keepAlive;
    }

    /** The chat answer's content as a Responses object, for the Responses passthrough row. */
    private static final byte[] RESPONSES_ANSWER = ascii("{\"id\":\"resp_bench\",\"object\":\"response\",\"created_at\":1,\"status\":\"completed\","
            + "\"model\":\"bench\",\"output\":[{\"id\":\"msg_bench\",\"type\":\"message\",\"status\":\"completed\",\"role\":\"assistant\","
            + "\"content\":[{\"type\":\"output_text\",\"text\":\"" + "x".repeat(256) + "\",\"annotations\":[]}]}],"
            + "\"usage\":{\"input_tokens\":512,\"output_tokens\":48,\"total_tokens\":560}}");
    private static final byte[] CHAT_ANSWER = ascii("{\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion\",\"created\":1,"
            + "\"model\":\"bench\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"" + "x".repeat(256)
            + "\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":512,\"completion_tokens\":64,\"total_tokens\":576}}");
    private static final byte[] MESSAGES_ANSWER = ascii("{\"id\":\"msg_bench\",\"type\":\"message\",\"role\":\"assistant\","
            + "\"model\":\"bench\",\"content\":[{\"type\":\"text\",\"text\":\"" + "x".repeat(256) + "\"}],\"stop_reason\":\"end_turn\","
            + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":512,\"output_tokens\":64}}");

    private static boolean fixed(OutputStream out, byte[] json, boolean keepAlive) throws IOException {
        out.write(ascii("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + json.length + "\r\n"
                + (keepAlive ? "" : "Connection: close\r\n") + "\r\n"));
        out.write(json);
        out.flush();
        return keepAlive;
    }

    /** A chat stream whose deltas carry their send time, for the transcoded per-event delay. */
    private static boolean chatStream(Request req, OutputStream out) throws IOException, InterruptedException {
        int n = Integer.parseInt(req.query.getOrDefault("n", "50"));
        long intervalNanos = GoDuration.parse(req.query.getOrDefault("interval", "100ms")).toNanos();
        out.write(ascii("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                + "Transfer-Encoding: chunked\r\n" + (req.keepAlive ? "" : "Connection: close\r\n") + "\r\n"));
        long start = System.nanoTime();
        for (int i = 1; i <= n; i++) {
            sleepUntil(start + (i - 1) * intervalNanos);
            chunk(out, "data: {\"id\":\"chatcmpl-sse\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"sent_us=" + epochMicros()
                    + " \"},\"finish_reason\":null}]}\n\n");
        }
        chunk(out, "data: {\"id\":\"chatcmpl-sse\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                + "data: {\"id\":\"chatcmpl-sse\",\"choices\":[],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":" + n + "}}\n\ndata: [DONE]\n\n");
        out.write(ascii("0\r\n\r\n"));
        out.flush();
        return req.keepAlive;
    }

    private static void chunk(OutputStream out, String text) throws IOException {
        byte[] event = ascii(text);
        out.write(ascii(Integer.toHexString(event.length) + "\r\n"));
        out.write(event);
        out.write(CRLF);
        out.flush();
    }

    private static void sleepUntil(long deadlineNanos) throws InterruptedException {
        long left;
        while ((left = deadlineNanos - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    static long epochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    private static void simple(OutputStream out, int status, String reason, String body, boolean keepAlive) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        out.write(ascii("HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                + b.length + "\r\n" + (keepAlive ? "" : "Connection: close\r\n") + "\r\n"));
        out.write(b);
        out.flush();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] oneKiB() {
        byte[] body = new byte[1024];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) ('a' + i % 26);
        }
        body[body.length - 1] = '\n';
        return body;
    }

    /** One parsed request head; bodies are skipped by Content-Length (chunked request bodies are refused). */
    record Request(String method, String path, Map<String, String> query, boolean keepAlive) {
    }

    /** Reads request heads off a keep-alive connection, keeping pipelined leftovers. */
    static final class RequestReader {
        private final InputStream in;
        private byte[] buf = new byte[8 * 1024];
        private int start;
        private int end;

        RequestReader(InputStream in) {
            this.in = in;
        }

        /** The next request, or null at a clean end of the connection. */
        Request next() throws IOException {
            int headEnd;
            while ((headEnd = indexOf(CRLFCRLF)) < 0) {
                if (end - start >= MAX_HEAD) {
                    throw new IOException("request head over " + MAX_HEAD + " bytes");
                }
                if (!fill()) {
                    return null;
                }
            }
            String headText = new String(buf, start, headEnd - start, StandardCharsets.ISO_8859_1);
            start = headEnd + CRLFCRLF.length;
            String[] lines = headText.split("\r\n");
            String[] requestLine = lines[0].split(" ");
            if (requestLine.length != 3) {
                throw new IOException("malformed request line: " + lines[0]);
            }
            boolean http10 = requestLine[2].equals("HTTP/1.0");
            boolean keepAlive = !http10;
            long contentLength = 0;
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon <= 0) {
                    continue;
                }
                String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = lines[i].substring(colon + 1).trim().toLowerCase(Locale.ROOT);
                switch (name) {
                    case "connection" -> keepAlive = value.contains("close") ? false : (value.contains("keep-alive") || keepAlive);
                    case "content-length" -> contentLength = Long.parseLong(value);
                    case "transfer-encoding" -> throw new IOException("chunked request bodies are not supported");
                    default -> { }
                }
            }
            skip(contentLength);
            String target = requestLine[1];
            int q = target.indexOf('?');
            String path = q < 0 ? target : target.substring(0, q);
            return new Request(requestLine[0], path, q < 0 ? Map.of() : query(target.substring(q + 1)), keepAlive);
        }

        private static Map<String, String> query(String raw) {
            Map<String, String> params = new HashMap<>();
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    params.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            }
            return params;
        }

        private void skip(long n) throws IOException {
            while (n > 0) {
                if (start == end && !fill()) {
                    throw new IOException("request body ended early");
                }
                int take = (int) Math.min(n, end - start);
                start += take;
                n -= take;
            }
        }

        private boolean fill() throws IOException {
            if (start == end) {
                start = 0;
                end = 0;
            } else if (end == buf.length) {
                if (start > 0) {
                    System.arraycopy(buf, start, buf, 0, end - start);
                    end -= start;
                    start = 0;
                } else {
                    buf = Arrays.copyOf(buf, buf.length * 2);
                }
            }
            int n = in.read(buf, end, buf.length - end);
            if (n < 0) {
                return false;
            }
            end += n;
            return true;
        }

        private int indexOf(byte[] needle) {
            outer:
            for (int i = start; i <= end - needle.length; i++) {
                for (int j = 0; j < needle.length; j++) {
                    if (buf[i + j] != needle[j]) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }
    }
}
