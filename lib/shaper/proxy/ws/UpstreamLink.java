package shaper.proxy.ws;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import shaper.observe.Header;

/**
 * The upstream end of one Responses WebSocket session, on the JDK's {@link WebSocket} client: it opens
 * the socket with the handshake's forwarded fields, joins each text message from its fragments (at
 * most {@link #MAX_MESSAGE} characters: a larger one closes the socket with 1009), and hands whole
 * messages to the session in order. The JDK client answers the upstream's pings itself and offers no
 * {@code permessage-deflate}, so every frame goes uncompressed. Reading starts at {@link #start}, then
 * one message is asked for at a time: the session has relayed a message before the next is read.
 */
final class UpstreamLink implements WebSocket.Listener {
    /** The longest upstream message relayed: an event that carries a whole response, with room to spare. */
    static final int MAX_MESSAGE = 32 * 1024 * 1024;
    /** Fields the JDK client sets itself or refuses; the rest of the forwarded handshake goes as it came. */
    private static final List<String> OWN_FIELDS = List.of("connection", "upgrade", "host", "content-length", "expect");

    /** What the session hears from upstream. */
    interface Events {
        /** One whole text message. */
        void message(String text);

        /** The socket ended: a close frame ({@code code}, {@code reason}) or a failure (1006). */
        void ended(int code, String reason);
    }

    private final Events events;
    private final StringBuilder partial = new StringBuilder();
    private volatile WebSocket socket;

    private UpstreamLink(Events events) {
        this.events = events;
    }

    /**
     * Opens the upstream socket within {@code timeout}.
     *
     * @param fields       the handshake's fields as forwarded (hygiene and the provider's credentials applied)
     * @param subprotocols the protocols the client offered, empty for none
     * @throws java.net.http.WebSocketHandshakeException inside the {@link ExecutionException} when the upstream refused
     */
    static Opened open(HttpClient http, URI uri, List<Header> fields, List<String> subprotocols, Duration timeout, Events events)
            throws ExecutionException, TimeoutException, InterruptedException {
        UpstreamLink link = new UpstreamLink(events);
        WebSocket.Builder builder = http.newWebSocketBuilder().connectTimeout(timeout);
        for (Header field : fields) {
            String lower = field.name().toLowerCase(Locale.ROOT);
            if (!lower.startsWith("sec-websocket-") && !OWN_FIELDS.contains(lower)) {
                builder.header(field.name(), field.value());
            }
        }
        if (!subprotocols.isEmpty()) {
            builder.subprotocols(subprotocols.getFirst(), subprotocols.subList(1, subprotocols.size()).toArray(String[]::new));
        }
        WebSocket ws = builder.buildAsync(uri, link).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        link.socket = ws;
        return new Opened(link, ws.getSubprotocol());
    }

    /** An open link and the subprotocol the upstream chose (empty for none). */
    record Opened(UpstreamLink link, String subprotocol) {
    }

    /**
     * Sends one whole text message, waiting at most {@code bound} for it to be written. The JDK client
     * completes a send's future before it clears its one-send-at-a-time mark, so a send right after the
     * last one completed can be refused with "Send pending" although nothing is pending: that refusal is
     * retried (within the bound), every other failure is the caller's.
     */
    void send(String text, Duration bound) throws ExecutionException, TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            try {
                socket.sendText(text, true).get(Math.max(1, (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof IllegalStateException) || System.nanoTime() > deadline || socket.isOutputClosed()) {
                    throw e;
                }
                Thread.sleep(1); // the mark clears as soon as the last send's completion has run
            }
        }
    }

    /** Sends a close frame and drops the connection: the upstream stops generating for this socket. Idempotent. */
    void close(int code, String reason) {
        WebSocket ws = socket;
        if (ws == null || ws.isOutputClosed() && ws.isInputClosed()) {
            return;
        }
        ws.sendClose(code, reason).orTimeout(1, TimeUnit.SECONDS).whenComplete((w, e) -> ws.abort());
    }

    /** Nothing is read before {@link #start}: the client's {@code 101} must be written before any event is relayed. */
    @Override
    public void onOpen(WebSocket webSocket) {
    }

    /** Starts reading: call once the client's session can take events. */
    void start() {
        socket.request(1);
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        if (partial.length() + data.length() > MAX_MESSAGE) {
            partial.setLength(0);
            webSocket.sendClose(1009, "message too big").whenComplete((w, e) -> webSocket.abort());
            events.ended(1009, "upstream message too big");
            return null;
        }
        partial.append(data);
        if (last) {
            String text = partial.toString();
            partial.setLength(0);
            events.message(text);
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
        // the Responses protocol is JSON text only
        webSocket.sendClose(1003, "binary messages are not part of the protocol").whenComplete((w, e) -> webSocket.abort());
        events.ended(1003, "upstream sent a binary message");
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        events.ended(statusCode, reason);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        events.ended(1006, "upstream socket failed");
    }
}
