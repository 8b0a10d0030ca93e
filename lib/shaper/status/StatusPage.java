package shaper.status;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

import com.sun.net.httpserver.HttpExchange;
import shaper.auth.ClientKeys;
import shaper.proxy.ProviderAssembly;

/**
 * The live status page on the {@code -metrics-bind} listener (nothing of it on the proxy port):
 * {@code GET /} is one self-contained HTML page (its script and styles inline, no CDN, no build
 * step), which reads {@code GET /events}, an event stream of one {@link StatusSnapshot} a second.
 *
 * <p>With {@code -client-key}, both ask for a configured key: in {@code Authorization: Bearer},
 * {@code x-api-key}, or as the password of HTTP Basic authentication, which a browser asks for once
 * and then sends with the page's own stream request. At most {@value #STREAMS} streams run at once,
 * each for at most {@link #STREAM_LIFE} (the page's {@code EventSource} reconnects by itself), so a
 * forgotten tab or a crowd of them never holds the listener. Thread-safe.
 */
public final class StatusPage {
    public static final String PAGE = "/";
    public static final String EVENTS = "/events";
    static final int STREAMS = 16;
    static final Duration STREAM_LIFE = Duration.ofMinutes(10);
    static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final String RESOURCE = "shaper/status/status.html";

    private final Supplier<List<ProviderAssembly>> providers;
    private final Supplier<ClientKeys> keys;
    private final Clock clock;
    private final Semaphore streams = new Semaphore(STREAMS);
    private final byte[] page;

    /**
     * @param providers the providers in force (a reload replaces them)
     * @param keys      the client keys in force
     */
    public StatusPage(Supplier<List<ProviderAssembly>> providers, Supplier<ClientKeys> keys, Clock clock) {
        this.providers = providers;
        this.keys = keys;
        this.clock = clock;
        this.page = load();
    }

    private static byte[] load() {
        try (InputStream in = StatusPage.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return "<!doctype html><title>shaper</title><p>status page missing from this build</p>".getBytes(StandardCharsets.UTF_8);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Whether {@code path} is one of the page's. */
    public static boolean serves(String path) {
        return path.equals(PAGE) || path.equals(EVENTS);
    }

    /** Answers a {@code GET} of {@link #PAGE} or {@link #EVENTS}; the caller has checked the method. */
    public void serve(HttpExchange ex) throws IOException {
        if (keys.get().required() && !authorized(ex)) {
            ex.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"ai-concurrency-shaper\", charset=\"UTF-8\"");
            reply(ex, 401, "text/plain; charset=utf-8", "a client key is required\n".getBytes(StandardCharsets.UTF_8));
            return;
        }
        if (ex.getRequestURI().getRawPath().equals(PAGE)) {
            ex.getResponseHeaders().set("Cache-Control", "no-store");
            ex.getResponseHeaders().set("Content-Security-Policy", "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'");
            reply(ex, 200, "text/html; charset=utf-8", page);
            return;
        }
        stream(ex);
    }

    private boolean authorized(HttpExchange ex) {
        List<String> auth = values(ex, "Authorization");
        for (String value : auth) {
            if (value.regionMatches(true, 0, "Basic ", 0, 6)) {
                Optional<String> password = basicPassword(value.substring(6).trim());
                if (password.isPresent() && keys.get().check(name -> name.equals("x-api-key") ? List.of(password.get()) : List.of()).isPresent()) {
                    return true;
                }
            }
        }
        return keys.get().check(name -> values(ex, name)).isPresent();
    }

    private static List<String> values(HttpExchange ex, String name) {
        List<String> v = ex.getRequestHeaders().get(name);
        return v == null ? List.of() : v;
    }

    private static Optional<String> basicPassword(String encoded) {
        try {
            String pair = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
            int colon = pair.indexOf(':');
            return colon < 0 ? Optional.empty() : Optional.of(pair.substring(colon + 1));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private void stream(HttpExchange ex) throws IOException {
        if (!streams.tryAcquire()) {
            ex.getResponseHeaders().set("Retry-After", "5");
            reply(ex, 503, "text/plain; charset=utf-8", "too many status streams\n".getBytes(StandardCharsets.UTF_8));
            return;
        }
        try {
            ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
            ex.getResponseHeaders().set("Cache-Control", "no-store");
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            out.write("retry: 1000\n\n".getBytes(StandardCharsets.UTF_8));
            long end = System.nanoTime() + STREAM_LIFE.toNanos();
            while (System.nanoTime() < end) {
                out.write(("data: " + StatusSnapshot.of(providers.get(), clock.instant()) + "\n\n").getBytes(StandardCharsets.UTF_8));
                out.flush(); // a page that left shows up here, as a failed write
                Thread.sleep(INTERVAL.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the listener is closing
        } finally {
            streams.release();
        }
    }

    private static void reply(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }
}
