package shaper.cluster;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * A failed Redis call or connection in words a person can act on, naming the flag to fix where a
 * flag can fix it (a certificate, a password), never an exception class name alone.
 */
final class RedisFailure {
    private RedisFailure() {
    }

    /** As {@link #describe(Throwable)}, for a link over TLS: a connection cut right away there is also a refused client certificate. */
    static String describe(Throwable e, boolean tls) {
        String d = describe(e);
        if (tls && (d.equals("the server closed the connection") || d.contains("Broken pipe") || d.contains("Connection reset"))) {
            return d + " (over TLS: does the server want a client certificate? give -limiter-redis-cert and -limiter-redis-key)";
        }
        return d;
    }

    static String describe(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SSLHandshakeException || t instanceof java.security.cert.CertificateException) {
                return "TLS handshake failed: " + rootMessage(t) + " (the server's certificate must chain to -limiter-redis-ca,"
                        + " or to the system trust store without it, and name the host of -limiter-backend;"
                        + " a server that wants a client certificate needs -limiter-redis-cert and -limiter-redis-key)";
            }
            if (t instanceof SSLException) {
                return "TLS failed: " + rootMessage(t) + " (does the server speak TLS on this port? rediss:// needs a TLS port)";
            }
            if (t instanceof JedisAccessControlException || t instanceof JedisDataException d && isAuth(d.getMessage())) {
                return "authentication refused: " + firstLine(t.getMessage())
                        + " (check the user and password of -limiter-redis-auth, or of " + RedisEndpoint.PASSWORD_ENV + ")";
            }
        }
        String root = rootMessage(e);
        if (root.contains("Unexpected end of stream")) {
            return "the server closed the connection";
        }
        if (root.contains("Connection refused")) {
            return "connection refused";
        }
        if (root.contains("Read timed out") || root.contains("connect timed out")) {
            return "Timeout: no answer within -limiter-redis-timeout";
        }
        return root;
    }

    static boolean isAuth(String message) {
        String m = String.valueOf(message);
        return m.startsWith("WRONGPASS") || m.startsWith("NOAUTH") || m.startsWith("NOPERM") || m.contains("invalid username-password");
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String msg = root.getMessage();
        return msg == null || msg.isBlank() ? root.getClass().getSimpleName() : firstLine(msg);
    }

    private static String firstLine(String s) {
        int nl = String.valueOf(s).indexOf('\n');
        return nl < 0 ? String.valueOf(s) : s.substring(0, nl);
    }
}
