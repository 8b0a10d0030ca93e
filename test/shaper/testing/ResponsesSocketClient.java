package shaper.testing;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A JDK WebSocket client for the proxy's Responses sessions: it keeps every whole text message and the
 * close code it was sent, sends whole or fragmented messages and pings, and waits (bounded) for a
 * pong, an event of a type or the close.
 */
public final class ResponsesSocketClient implements AutoCloseable {
    private final WebSocket ws;
    private final LinkedBlockingQueue<String> received;
    private final CompletableFuture<Integer> closed;
    private final LinkedBlockingQueue<ByteBuffer> pongs;

    private ResponsesSocketClient(WebSocket ws, LinkedBlockingQueue<String> received, CompletableFuture<Integer> closed,
                                  LinkedBlockingQueue<ByteBuffer> pongs) {
        this.ws = ws;
        this.received = received;
        this.closed = closed;
        this.pongs = pongs;
    }

    /** Opens {@code uri} (within 10 s) with {@code headers} as name, value pairs. */
    public static ResponsesSocketClient open(URI uri, String... headers) throws Exception {
        LinkedBlockingQueue<String> received = new LinkedBlockingQueue<>();
        LinkedBlockingQueue<ByteBuffer> pongs = new LinkedBlockingQueue<>();
        CompletableFuture<Integer> closed = new CompletableFuture<>();
        WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10));
        for (int i = 0; i + 1 < headers.length; i += 2) {
            builder.header(headers[i], headers[i + 1]);
        }
        StringBuilder partial = new StringBuilder();
        WebSocket ws = builder.buildAsync(uri, new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                partial.append(data);
                if (last) {
                    received.add(partial.toString());
                    partial.setLength(0);
                }
                webSocket.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onPong(WebSocket webSocket, ByteBuffer message) {
                pongs.add(message);
                webSocket.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                closed.complete(statusCode);
                return null;
            }

            @Override
            public void onError(WebSocket webSocket, Throwable error) {
                closed.complete(1006);
            }
        }).get(10, TimeUnit.SECONDS);
        return new ResponsesSocketClient(ws, received, closed, pongs);
    }

    public void send(String text) throws Exception {
        ws.sendText(text, true).get(10, TimeUnit.SECONDS);
    }

    /** Sends {@code parts} as one message in as many frames. */
    public void sendFragments(String... parts) throws Exception {
        for (int i = 0; i < parts.length; i++) {
            ws.sendText(parts[i], i == parts.length - 1).get(10, TimeUnit.SECONDS);
        }
    }

    public void sendBinary(byte[] bytes) throws Exception {
        ws.sendBinary(ByteBuffer.wrap(bytes), true).get(10, TimeUnit.SECONDS);
    }

    /** Pings with {@code payload} and waits (bounded) for the pong; true when one came back with the same bytes. */
    public boolean ping(String payload, Duration bound) throws Exception {
        ws.sendPing(ByteBuffer.wrap(payload.getBytes())).get(10, TimeUnit.SECONDS);
        ByteBuffer pong = pongs.poll(bound.toMillis(), TimeUnit.MILLISECONDS);
        if (pong == null) {
            return false;
        }
        byte[] bytes = new byte[pong.remaining()];
        pong.get(bytes);
        return new String(bytes).equals(payload);
    }

    /** The next whole message within {@code bound}, or null. */
    public String next(Duration bound) throws InterruptedException {
        return received.poll(bound.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Messages up to and including the first whose text contains {@code "type":"TYPE"}; fails after {@code bound}. */
    public List<String> until(String type, Duration bound) throws InterruptedException {
        List<String> seen = new ArrayList<>();
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < deadline) {
            String m = received.poll(Math.max(1, (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
            if (m == null) {
                break;
            }
            seen.add(m);
            if (m.contains("\"type\":\"" + type + "\"")) {
                return seen;
            }
        }
        throw new AssertionError("no " + type + " within " + bound + "; got " + seen);
    }

    /** The close code the server sent, within {@code bound}; -1 when the socket is still open. */
    public int closeCode(Duration bound) throws Exception {
        try {
            return closed.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            return -1;
        }
    }

    @Override
    public void close() {
        if (!ws.isOutputClosed()) {
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "bye").orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> null).join();
        }
        ws.abort();
    }
}
