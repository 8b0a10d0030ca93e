package shaper.server;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.UnresolvedAddressException;
import java.util.Locale;

import shaper.config.BindAddress;
import shaper.config.ConfigException;

/**
 * Binds a listen address once, before the real listener does, so a taken port or a host that is
 * not this machine's is a startup error naming the flag and the cause. Helidon reports a failed
 * listener only as a logged stack trace and a port of -1 while the process stays up; a trial bind
 * gives the operating system's reason in one line instead. The trial socket is closed at once (a
 * listening socket that accepted nothing leaves no TIME_WAIT), and the listener binds with
 * {@code SO_REUSEADDR} anyway.
 */
final class ListenCheck {
    private ListenCheck() {
    }

    /**
     * @param flag the flag that named the address ({@code -bind}, {@code -metrics-bind})
     * @throws ConfigException when the address cannot be bound: {@code -bind 127.0.0.1:8080: cannot listen: address already in use (...)}
     */
    static void bindable(String flag, BindAddress bind) {
        if (bind.port() == 0) {
            return; // an ephemeral port is always free
        }
        try (ServerSocketChannel trial = ServerSocketChannel.open()) {
            trial.bind(new InetSocketAddress(bind.host(), bind.port()));
        } catch (IOException | UnresolvedAddressException e) {
            throw failure(flag, bind, e);
        }
    }

    /** The one-line startup error for an address that could not be bound. */
    static ConfigException failure(String flag, BindAddress bind, Exception e) {
        return new ConfigException(flag + " " + bind + ": cannot listen: " + cause(bind, e));
    }

    private static String cause(BindAddress bind, Exception e) {
        String message = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
        if (e instanceof UnresolvedAddressException || e instanceof UnknownHostException) {
            return "unknown host " + bind.host();
        }
        if (message.contains("already in use")) {
            return "address already in use (another shaper? see http://" + bind + "/__shaper/health)";
        }
        if (e instanceof BindException && message.contains("assign")) {
            return "the host " + bind.host() + " is not an address of this machine";
        }
        if (message.contains("permission denied")) {
            return "permission denied (ports below 1024 need privileges)";
        }
        return message.isEmpty() ? e.getClass().getSimpleName() : message;
    }
}
