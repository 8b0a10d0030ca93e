package shaper.proxy.client;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One look at whether an upstream can be reached at all: resolve its host and open a TCP
 * connection, nothing sent. The whole look, name resolution included (which a socket's connect
 * timeout does not cover), is bounded. Used at startup by the proxy and by the launcher, which
 * only report what they find: an upstream may come up later.
 */
public final class Reachability {
    private Reachability() {
    }

    /**
     * @param bound the longest the look may take
     * @return why {@code upstream} cannot be reached, in words ({@code connection refused}, {@code unknown host h}), or empty
     */
    public static Optional<String> problem(URI upstream, Duration bound) throws InterruptedException {
        AtomicReference<Optional<String>> found = new AtomicReference<>();
        Thread look = Thread.ofVirtual().name("shaper-reachability").start(() -> found.set(connect(upstream, bound)));
        if (!look.join(bound.plusMillis(250))) {
            look.interrupt();
            return Optional.of("no answer within " + bound.toSeconds() + "s");
        }
        return found.get();
    }

    private static Optional<String> connect(URI upstream, Duration bound) {
        int port = upstream.getPort() > 0 ? upstream.getPort() : "https".equalsIgnoreCase(upstream.getScheme()) ? 443 : 80;
        InetSocketAddress address = new InetSocketAddress(upstream.getHost(), port);
        if (address.isUnresolved()) {
            return Optional.of("unknown host " + upstream.getHost());
        }
        try (Socket s = new Socket()) {
            s.connect(address, (int) Math.max(1, bound.toMillis()));
            return Optional.empty();
        } catch (UnknownHostException e) {
            return Optional.of("unknown host " + upstream.getHost());
        } catch (ConnectException e) {
            String m = e.getMessage() == null ? "" : e.getMessage().toLowerCase(java.util.Locale.ROOT);
            return Optional.of(m.contains("timed out") ? "connect timed out" : m.contains("unreachable") ? "network unreachable"
                    : "connection refused");
        } catch (SocketTimeoutException e) {
            return Optional.of("no answer within " + bound.toSeconds() + "s");
        } catch (IOException | RuntimeException e) {
            return Optional.of(e.getMessage() == null ? "cannot connect" : e.getMessage());
        }
    }
}
