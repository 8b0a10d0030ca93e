///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 21+
//JAVA_OPTIONS -Xms32m -Xmx128m
//DEPS io.helidon.webserver:helidon-webserver:4.5.0
//DEPS io.helidon.webserver:helidon-webserver-websocket:4.5.0

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.helidon.common.socket.SocketOptions;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.websocket.WsRouting;
import io.helidon.websocket.WsListener;
import io.helidon.websocket.WsSession;

/**
 * The Responses WebSocket bench: {@code serve -port N} is a fake upstream (each generating
 * {@code response.create} answered with {@code bench_events} delta events {@code bench_interval_ms}
 * apart, each stamped with the wall clock in microseconds, then {@code response.completed};
 * {@code GET /health} for the launcher, {@code POST /v1/traces} and {@code /v1/metrics} taking a traced proxy's OTLP export); {@code probe -url WS -turns T -events N -interval MS} runs T
 * turns one after another over one socket and prints one line {@code WS_RESULT key=value …}: per-event
 * delay (arrival minus stamp) and per-turn round trip (request sent to {@code response.completed}),
 * p50 and p99 in microseconds. The first {@code -warmup} turns are not measured.
 */
public class WsTurnProbe {
    private static final Logger HELIDON = Logger.getLogger("io.helidon");
    private static final Pattern STAMP = Pattern.compile("\"t\":(\\d+)");
    private static final Pattern EVENTS = Pattern.compile("\"bench_events\":(\\d+)");
    private static final Pattern INTERVAL = Pattern.compile("\"bench_interval_ms\":(\\d+)");

    public static void main(String[] args) throws Exception {
        HELIDON.setLevel(Level.WARNING);
        if (args.length > 0 && args[0].equals("serve")) {
            serve(Integer.parseInt(arg(args, "-port", "0")));
        } else if (args.length > 0 && args[0].equals("probe")) {
            probe(URI.create(arg(args, "-url", "")), Integer.parseInt(arg(args, "-turns", "200")), Integer.parseInt(arg(args, "-events", "0")),
                    Integer.parseInt(arg(args, "-interval", "0")), Integer.parseInt(arg(args, "-warmup", "50")));
        } else {
            System.err.println("usage: WsTurnProbe serve -port N | probe -url WS -turns T -events N -interval MS -warmup W");
            System.exit(2);
        }
    }

    private static String arg(String[] args, String name, String fallback) {
        for (int i = 1; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return fallback;
    }

    private static long micros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    private static int find(Pattern p, String text) {
        Matcher m = p.matcher(text);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /** A traced proxy's OTLP export, taken and dropped: the bench measures the proxy, not a collector. */
    private static void otlpTaken(io.helidon.webserver.http.ServerRequest req, io.helidon.webserver.http.ServerResponse res) {
        req.content().consume();
        res.send();
    }

    private static void serve(int port) throws InterruptedException {
        WebServer server = WebServer.builder().host("127.0.0.1").port(port)
                // without it Nagle and delayed ACKs put ~40 ms between an event and the next
                .connectionOptions(SocketOptions.builder().tcpNoDelay(true).build())
                .routing(r -> r.get("/health", (req, res) -> res.send("ok"))
                        .post("/v1/traces", WsTurnProbe::otlpTaken)
                        .post("/v1/metrics", WsTurnProbe::otlpTaken))
                .addRouting(WsRouting.builder().endpoint("/v1/responses", () -> new WsListener() {
                    @Override
                    public void onMessage(WsSession session, String text, boolean last) {
                        int n = find(EVENTS, text);
                        int gap = find(INTERVAL, text);
                        session.send("{\"type\":\"response.created\",\"response\":{\"id\":\"resp_b\"}}", true);
                        try {
                            for (int i = 0; i < n; i++) {
                                if (gap > 0) {
                                    Thread.sleep(gap); // the upstream's pace between events, not a synchronization
                                }
                                session.send("{\"type\":\"response.output_text.delta\",\"t\":" + micros() + ",\"delta\":\"x\"}", true);
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        session.send("{\"type\":\"response.completed\",\"response\":{\"id\":\"resp_b\",\"usage\":{\"input_tokens\":1,"
                                + "\"output_tokens\":1,\"total_tokens\":2}}}", true);
                    }
                }))
                .build().start();
        System.out.println("port " + server.port());
        Thread.currentThread().join();
    }

    private static void probe(URI url, int turns, int events, int interval, int warmup) throws Exception {
        LinkedBlockingQueue<String> received = new LinkedBlockingQueue<>();
        List<Long> eventDelays = new ArrayList<>();
        List<Long> roundTrips = new ArrayList<>();
        WebSocket ws = HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(url, new WebSocket.Listener() {
            private final StringBuilder partial = new StringBuilder();

            @Override
            public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                partial.append(data);
                if (last) {
                    received.add(partial.toString());
                    partial.setLength(0);
                }
                w.request(1);
                return null;
            }
        }).get(15, TimeUnit.SECONDS);
        String create = "{\"type\":\"response.create\",\"model\":\"bench\",\"bench_events\":" + events + ",\"bench_interval_ms\":" + interval
                + ",\"input\":[{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"hi\"}]}]}";
        for (int turn = 0; turn < warmup + turns; turn++) {
            long sent = System.nanoTime();
            ws.sendText(create, true).get(15, TimeUnit.SECONDS);
            while (true) {
                String m = received.poll(30, TimeUnit.SECONDS);
                if (m == null) {
                    throw new IllegalStateException("no event within 30 s at turn " + turn);
                }
                long arrived = micros();
                if (turn < warmup) {
                    if (m.contains("response.completed")) {
                        break;
                    }
                    continue;
                }
                int at = m.indexOf("\"t\":");
                if (at >= 0) {
                    Matcher s = STAMP.matcher(m);
                    if (s.find()) {
                        eventDelays.add(arrived - Long.parseLong(s.group(1)));
                    }
                }
                if (m.contains("response.completed")) {
                    roundTrips.add((System.nanoTime() - sent) / 1_000);
                    break;
                }
                if (m.contains("\"type\":\"error\"")) {
                    throw new IllegalStateException("refused: " + m);
                }
            }
        }
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(5, TimeUnit.SECONDS);
        System.out.println("WS_RESULT turns=" + roundTrips.size() + " events=" + eventDelays.size()
                + " event_p50_us=" + pct(eventDelays, 50) + " event_p99_us=" + pct(eventDelays, 99)
                + " turn_p50_us=" + pct(roundTrips, 50) + " turn_p99_us=" + pct(roundTrips, 99));
    }

    private static long pct(List<Long> values, int p) {
        if (values.isEmpty()) {
            return -1;
        }
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }
}
