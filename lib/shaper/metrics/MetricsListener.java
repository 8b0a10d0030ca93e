package shaper.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import shaper.config.BindAddress;
import shaper.status.StatusPage;

/**
 * The {@code -metrics-bind} listener: {@code GET /metrics} (and {@code HEAD}) answers the text
 * exposition, {@code GET /} and {@code GET /events} the live status page ({@link StatusPage}); every
 * other path is 404 and every other method 405. It is the JDK's own
 * {@code com.sun.net.httpserver} server, not a second Helidon server: one handler, no routing,
 * its own lifecycle, nothing shared with the proxy listener, and it starts in milliseconds.
 * Requests run on virtual threads; a scrape never waits on proxy traffic.
 */
public final class MetricsListener implements AutoCloseable {
    public static final String PATH = "/metrics";

    private final HttpServer server;
    private final ExecutorService executor;

    private MetricsListener(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Binds and starts serving {@code metrics}.
     *
     * @throws IOException when the address cannot be bound; nothing is left listening then
     */
    public static MetricsListener start(BindAddress bind, ShaperMetrics metrics, StatusPage status) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(bind.host(), bind.port()), 64);
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        server.createContext("/", exchange -> {
            if (StatusPage.serves(exchange.getRequestURI().getRawPath())) {
                serveStatus(exchange, status);
            } else {
                serve(exchange, metrics);
            }
        });
        server.start();
        return new MetricsListener(server, executor);
    }

    private static void serve(HttpExchange exchange, ShaperMetrics metrics) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!exchange.getRequestURI().getRawPath().equals(PATH)) {
                reply(exchange, 404, "404 page not found\n");
                return;
            }
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                reply(exchange, 405, "method not allowed\n");
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", metrics.contentType());
            byte[] body = metrics.scrape().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, method.equals("HEAD") ? -1 : body.length);
            if (!method.equals("HEAD")) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    private static void serveStatus(HttpExchange exchange, StatusPage status) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("GET")) {
                exchange.getResponseHeaders().set("Allow", "GET");
                reply(exchange, 405, "method not allowed\n");
                return;
            }
            status.serve(exchange);
        }
    }

    private static void reply(HttpExchange exchange, int status, String text) throws IOException {
        byte[] body = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** The bound port (the requested one, or the ephemeral one for port 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
