package shaper.config;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * A listen address in Go's {@code host:port} form: {@code 127.0.0.1:8080}, {@code [::1]:8080},
 * {@code localhost:0}, or {@code :8080} (every interface).
 *
 * @param host the host to bind, {@code 0.0.0.0} when the text left it empty
 * @param port the TCP port, 0 for an ephemeral one
 */
public record BindAddress(String host, int port) {

    public BindAddress {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port: " + port + " (expected: 0..65535)");
        }
    }

    /** Text that is not {@code host:port} at all (a usage error), as opposed to a port out of range (a bad value). */
    public static final class Malformed extends IllegalArgumentException {
        Malformed(String message) {
            super(message);
        }
    }

    /**
     * Parses {@code host:port}; the message of the thrown exception names the text.
     *
     * @throws Malformed                when the text is not {@code host:port} with a numeric port
     * @throws IllegalArgumentException when the port is out of range
     */
    public static BindAddress parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            throw new Malformed("invalid address \"" + text + "\" (expected host:port, e.g. 127.0.0.1:8080)");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            throw new Malformed("invalid address \"" + text + "\" (IPv6 hosts need brackets: [::1]:8080)");
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new Malformed("invalid port in address \"" + text + "\"");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("invalid port in address \"" + text + "\" (expected 0..65535)");
        }
        return new BindAddress(host.isEmpty() ? "0.0.0.0" : host, port);
    }

    /** True when every address the host names is a loopback address; unresolvable hosts count as exposed. */
    public boolean isLoopback() {
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** The startup warning for an address others can reach, or empty for loopback. */
    public java.util.Optional<String> exposureWarning() {
        if (isLoopback()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("WARNING: -bind " + this + " is not a loopback address: anyone who can reach it"
                + " can use the proxy and the provider credentials it injects. Use 127.0.0.1:PORT unless you mean it.");
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
