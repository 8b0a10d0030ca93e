package shaper.testing;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A JDK WebSocket client that keeps the text messages it receives, for tests that talk through the
 * proxy's upgrade tunnel. Every wait is bounded; closing sends a normal close frame.
 */
public final class TextWebSocket implements AutoCloseable {
    private final WebSocket ws;
    private final LinkedBlockingQueue<String> received;

    private TextWebSocket(WebSocket ws, LinkedBlockingQueue<String> received) {
        this.ws = ws;
        this.received = received;
    }

    /** Opens {@code uri} (within 10 s), sending {@code headers} as name, value pairs with the handshake. */
    public static TextWebSocket open(URI uri, String... headers) throws Exception {
        LinkedBlockingQueue<String> received = new LinkedBlockingQueue<>();
        WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder();
        for (int i = 0; i + 1 < headers.length; i += 2) {
            builder.header(headers[i], headers[i + 1]);
        }
        WebSocket ws = builder.buildAsync(uri, new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                received.add(data.toString());
                webSocket.request(1);
                return CompletableFuture.completedFuture(null);
            }
        }).get(10, TimeUnit.SECONDS);
        return new TextWebSocket(ws, received);
    }

    /** Sends one text message and returns the next one received (null when none came within 5 s). */
    public String exchange(String text) throws Exception {
        ws.sendText(text, true).get(5, TimeUnit.SECONDS);
        return received.poll(5, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws Exception {
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "bye").get(5, TimeUnit.SECONDS);
    }
}
