package shaper.proxy;

import java.io.EOFException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

import shaper.config.GoDuration;

/**
 * Describes a transport failure in words a person can act on ({@code connection refused},
 * {@code the upstream closed the connection before answering}), never an exception class name, and
 * without leaking what a URL's query may carry: every {@code ?query} inside a message is replaced by
 * {@code ?[redacted]}.
 */
public final class TransportErrors {
    private static final Pattern QUERY = Pattern.compile("\\?[^\\s\"'<>]*");

    /** An upstream call ended because it outlived {@code -upstream-timeout} (its whole bound, body included). */
    static final class UpstreamTimeout extends RuntimeException {
        UpstreamTimeout(Duration bound) {
            super("upstream call exceeded -upstream-timeout " + GoDuration.format(bound), null, false, false);
        }
    }

    private TransportErrors() {
    }

    /** The failure in words, quoted for a logfmt line. */
    public static String describe(Throwable error) {
        return '"' + words(error).replace("\"", "'") + '"';
    }

    /**
     * The failure in words a client may read: a malformed answer is named by its defect, never by the
     * upstream's bytes (they are hostile, and the strict parser refused them), which only the log shows.
     */
    public static String forClient(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof shaper.proxy.client.MalformedAnswer m) {
                return m.defect();
            }
        }
        return words(error);
    }

    /** The failure in words. */
    public static String words(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        // the JDK's HTTP client wraps a refused connect around a closed channel: the connect is the reason
        for (Throwable t = error; t != null && !(root instanceof ConnectException); t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException) {
                root = t;
            }
        }
        String message = root.getMessage() == null ? "" : redact(root.getMessage()).trim();
        String lower = message.toLowerCase(Locale.ROOT);
        String kind = root.getClass().getSimpleName();
        if (error instanceof UpstreamTimeout || root instanceof UpstreamTimeout) {
            return redact(error.getMessage() == null ? "timed out" : error.getMessage());
        }
        if (handshakeFailed(error)) {
            // its root is the reason (a CertificateException for another name or an untrusted chain), in the JDK's words
            return "TLS handshake failed: " + message + tlsHint(lower);
        }
        return switch (root) {
            case ConnectException e when message.startsWith("cannot reach egress proxy") -> message;
            case ConnectException e -> lower.contains("timed out") ? "connect timed out" : "connection refused";
            // the JDK's message is the unresolved socket address's toString ("host/<unresolved>:443"): name the host only
            case UnknownHostException e -> "unknown host " + message.replaceFirst("/<unresolved>.*$", "");
            case NoRouteToHostException e -> "no route to host";
            case SocketTimeoutException e -> "timed out waiting for the upstream";
            case SSLException e -> "TLS error: " + message + tlsHint(lower);
            case shaper.proxy.client.UpstreamClient.NoAnswer e -> "the upstream closed the connection before answering";
            case EOFException e -> "the connection closed before the response was complete";
            case SocketException e when lower.contains("reset") -> "connection reset by the peer";
            case SocketException e when lower.contains("broken pipe") -> "the connection closed while sending";
            default -> switch (kind) {
                // Jedis: the Redis server closed the connection mid-reply
                case "JedisConnectionException" -> lower.contains("unexpected end of stream")
                        ? "the Redis server closed the connection" : "cannot reach the Redis server" + (message.isEmpty() ? "" : ": " + message);
                default -> message.isEmpty() ? "connection failed" : message;
            };
        };
    }

    /**
     * The flag that fixes a TLS failure, when the JDK's words show which: an alert that the peer
     * wants a client certificate (under TLS 1.3 it arrives after the client's side of the handshake,
     * at the first read), or a chain no trusted CA signed.
     */
    private static String tlsHint(String lower) {
        if (lower.contains("certificate_required") || lower.contains("bad_certificate")) {
            return " (the upstream wants a client certificate it accepts: give -upstream-client-cert and -upstream-client-key)";
        }
        if (lower.contains("pkix path building failed") || lower.contains("unable to find valid certification path")) {
            return " (no trusted CA signed its certificate: add its CA with -upstream-ca)";
        }
        return "";
    }

    /** True when a TLS handshake failed anywhere in the chain: the handshake exception wraps the reason, so the root alone hides it. */
    private static boolean handshakeFailed(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SSLHandshakeException) {
                return true;
            }
        }
        return false;
    }

    public static String redact(String text) {
        return QUERY.matcher(text).replaceAll("?[redacted]");
    }
}
