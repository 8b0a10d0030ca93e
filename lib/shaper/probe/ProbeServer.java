package shaper.probe;

import java.io.PrintStream;
import java.net.URI;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Level;
import java.util.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.helidon.common.socket.SocketOptions;
import io.helidon.http.encoding.ContentEncodingContext;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionSelector;

/**
 * The running fixture upstream: one Helidon listener (virtual thread per request, TCP_NODELAY, no
 * content-encoding negotiation so bodies go out exactly as written) whose single route sends
 * {@code /__probe/*} to the admin handler and everything else to the fixtures.
 * Production ({@code ProbeServer.java}) and tests start it through {@link #start}.
 */
public final class ProbeServer {
    /** Kept strongly reachable: JUL holds loggers weakly and would forget the level. */
    private static final Logger HELIDON_LOGGER = Logger.getLogger("io.helidon");

    private final WebServer server;
    private final ProbeStats stats;
    private final String host;
    private final CountDownLatch stopped = new CountDownLatch(1);

    private ProbeServer(WebServer server, ProbeStats stats, String host) {
        this.server = server;
        this.stats = stats;
        this.host = host;
    }

    /** Starts with real waits and no request log. */
    public static ProbeServer start(ProbeConfig config) {
        return start(config, Sleeper.REAL, null);
    }

    /**
     * @param sleeper how slow fixtures wait; tests pass one that returns at once
     * @param log     one line per fixture request, or {@code null} for none
     */
    public static ProbeServer start(ProbeConfig config, Sleeper sleeper, PrintStream log) {
        HELIDON_LOGGER.setLevel(Level.SEVERE);
        ObjectMapper mapper = new ObjectMapper();
        ProbeStats stats = new ProbeStats();
        CapacityFixture capacity = new CapacityFixture(config, sleeper);
        FixtureHandler fixtures = new FixtureHandler(config, stats, mapper, sleeper, capacity, log);
        AdminHandler admin = new AdminHandler(stats, capacity, mapper, fixtures.rateLimited());
        WebServer server = WebServer.builder()
                .host(config.bind().host())
                .port(config.bind().port())
                .shutdownHook(false)
                .connectionOptions(SocketOptions.builder().tcpNoDelay(true).build())
                .contentEncoding(ContentEncodingContext.builder().contentEncodingsDiscoverServices(false).build())
                .protocolsDiscoverServices(false)
                .addConnectionSelector(Http1ConnectionSelector.builder()
                        .config(Http1Config.builder().sendKeepAliveHeader(false).continueImmediately(true).build())
                        .build())
                .routing(r -> routing(r, admin, fixtures))
                .build()
                .start();
        return new ProbeServer(server, stats, config.bind().host());
    }

    /** The single route that production and tests share. */
    static void routing(HttpRouting.Builder routing, AdminHandler admin, FixtureHandler fixtures) {
        routing.any((ServerRequest req, ServerResponse res) -> {
            if (req.prologue().uriPath().rawPath().startsWith(AdminHandler.PREFIX)) {
                admin.handle(req, res);
            } else {
                fixtures.handle(req, res);
            }
        });
    }

    public int port() {
        return server.port();
    }

    /** {@code http://HOST:PORT} followed by {@code pathAndQuery}. */
    public URI uri(String pathAndQuery) {
        String h = host.contains(":") ? "[" + host + "]" : host;
        return URI.create("http://" + h + ":" + port() + pathAndQuery);
    }

    public ProbeStats stats() {
        return stats;
    }

    public void stop() {
        try {
            server.stop();
        } finally {
            stopped.countDown();
        }
    }

    public void awaitStop() {
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
