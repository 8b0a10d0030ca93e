package shaper.testing;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.helidon.common.buffers.BufferData;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.websocket.WsRouting;
import io.helidon.websocket.WsListener;
import io.helidon.websocket.WsSession;

/**
 * A local Responses API that speaks the WebSocket transport on {@code /v1/responses} (and the same
 * answers as an event stream over {@code POST /v1/responses}, for a client that falls back to HTTP).
 * Each generating {@code response.create} is answered on a thread of its own with
 * {@code response.created}, one assistant message ({@link #reply}) and {@code response.completed} with
 * usage 11 in / 7 out; a prewarm ({@code "generate": false}) with created and completed at once. It
 * counts the responses in flight (and the most at once), can hold every generating turn until
 * {@link #release}d, and can answer the next turns with scripted events instead. Every wait is bounded.
 */
public final class ResponsesSocketUpstream implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final WebServer server;
    private final String reply;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final AtomicInteger ids = new AtomicInteger();
    private final AtomicInteger abandoned = new AtomicInteger();
    private final AtomicInteger closes = new AtomicInteger();
    private final AtomicInteger posts = new AtomicInteger();
    private final List<Headers> handshakes = new CopyOnWriteArrayList<>();
    private final List<String> messages = new CopyOnWriteArrayList<>();
    private final ConcurrentLinkedDeque<String> scripted = new ConcurrentLinkedDeque<>();
    private volatile Semaphore gate;

    private ResponsesSocketUpstream(String reply) {
        this.reply = reply;
        this.server = WebServer.builder().host("127.0.0.1").port(0)
                .connectionOptions(io.helidon.common.socket.SocketOptions.builder().tcpNoDelay(true).build())
                .routing(r -> r.post("/v1/responses", (req, res) -> {
                    posts.incrementAndGet();
                    req.content().consume();
                    StringBuilder sse = new StringBuilder();
                    for (String event : turn("resp_" + ids.incrementAndGet())) {
                        sse.append("data: ").append(event).append("\n\n");
                    }
                    res.header("Content-Type", "text/event-stream").send(sse.toString());
                }))
                .addRouting(WsRouting.builder().endpoint("/v1/responses", Session::new))
                .build().start();
    }

    public static ResponsesSocketUpstream start(String reply) {
        return new ResponsesSocketUpstream(reply);
    }

    /** The base URL ({@code http://127.0.0.1:PORT}). */
    public String url() {
        return "http://127.0.0.1:" + server.port();
    }

    public URI uri(String path) {
        return URI.create(url() + path);
    }

    /** From now on every generating turn waits (at most 60 s) for a {@link #release}. */
    public void holdTurns() {
        gate = new Semaphore(0);
    }

    /** Lets {@code n} held turns go on. */
    public void release(int n) {
        gate.release(n);
    }

    /** The next generating turn is answered with {@code event} alone (e.g. an {@code error} event). */
    public void answerNextWith(String event) {
        scripted.add(event);
    }

    public int inFlight() {
        return inFlight.get();
    }

    public int maxInFlight() {
        return maxInFlight.get();
    }

    /** Generating turns whose socket closed while they were held. */
    public int abandoned() {
        return abandoned.get();
    }

    /** Sockets the proxy closed or that ended. */
    public int closes() {
        return closes.get();
    }

    /** {@code POST /v1/responses} answered: HTTP fallbacks. */
    public int posts() {
        return posts.get();
    }

    public List<Headers> handshakes() {
        return handshakes;
    }

    /** Every client message received over a socket, in order. */
    public List<String> messages() {
        return messages;
    }

    private List<String> turn(String id) {
        String created = "{\"type\":\"response.created\",\"response\":{\"id\":\"" + id + "\"}}";
        String item = "{\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"type\":\"message\",\"id\":\"msg_" + id
                + "\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":" + quote(reply) + "}]}}";
        String completed = "{\"type\":\"response.completed\",\"response\":{\"id\":\"" + id + "\",\"model\":\"fake-1\",\"usage\":"
                + "{\"input_tokens\":11,\"input_tokens_details\":null,\"output_tokens\":7,\"output_tokens_details\":null,\"total_tokens\":18}}}";
        return List.of(created, item, completed);
    }

    private static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** One socket. */
    private final class Session implements WsListener {
        private final AtomicBoolean open = new AtomicBoolean(true);
        private final StringBuilder partial = new StringBuilder();

        @Override
        public java.util.Optional<Headers> onHttpUpgrade(HttpPrologue prologue, Headers headers) {
            handshakes.add(headers);
            return java.util.Optional.empty();
        }

        @Override
        public void onMessage(WsSession session, String text, boolean last) {
            partial.append(text);
            if (!last) {
                return;
            }
            String message = partial.toString();
            partial.setLength(0);
            messages.add(message);
            JsonNode node;
            try {
                node = JSON.readTree(message);
            } catch (Exception e) {
                session.close(1007, "not JSON");
                return;
            }
            String id = "resp_" + ids.incrementAndGet();
            if (!node.path("type").asText().equals("response.create")) {
                return;
            }
            if (node.path("generate").isBoolean() && !node.path("generate").asBoolean()) {
                send(session, List.of("{\"type\":\"response.created\",\"response\":{\"id\":\"" + id + "\"}}",
                        "{\"type\":\"response.completed\",\"response\":{\"id\":\"" + id + "\",\"output\":[]}}"));
                return;
            }
            Thread.ofVirtual().start(() -> generate(session, id));
        }

        private void generate(WsSession session, String id) {
            int now = inFlight.incrementAndGet();
            maxInFlight.accumulateAndGet(now, Math::max);
            try {
                Semaphore g = gate;
                if (g != null && !awaitGate(g)) {
                    abandoned.incrementAndGet();
                    return;
                }
                String script = scripted.poll();
                send(session, script != null ? List.of(script) : turn(id));
            } finally {
                inFlight.decrementAndGet();
            }
        }

        /** Waits for the gate in short slices, so that a socket closed meanwhile is seen. */
        private boolean awaitGate(Semaphore g) {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            try {
                while (System.nanoTime() < deadline) {
                    if (!open.get()) {
                        return false;
                    }
                    if (g.tryAcquire(20, TimeUnit.MILLISECONDS)) {
                        return true;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return false;
        }

        private void send(WsSession session, List<String> events) {
            try {
                for (String event : events) {
                    session.send(event, true);
                }
            } catch (RuntimeException closed) {
                open.set(false);
            }
        }

        @Override
        public void onPing(WsSession session, BufferData buffer) {
            session.pong(buffer);
        }

        @Override
        public void onClose(WsSession session, int status, String reason) {
            open.set(false);
            closes.incrementAndGet();
        }

        @Override
        public void onError(WsSession session, Throwable t) {
            open.set(false);
        }
    }

    @Override
    public void close() {
        server.stop();
    }
}
