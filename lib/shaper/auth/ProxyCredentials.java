package shaper.auth;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import java.util.function.Function;

/**
 * The user and password the proxy presents to an egress proxy ({@code -upstream-proxy-auth
 * env:VAR|file:PATH}, read at startup and at each reload): {@code Proxy-Authorization: Basic} on
 * {@code CONNECT} (RFC 9110 section 11.7.1, RFC 7617), the username/password method for SOCKS5
 * (RFC 1929). The value is {@code user:password}, split at the first colon (a Basic user id holds
 * none). {@code toString} shows the user only.
 *
 * @param user     never empty
 * @param password never empty
 */
public record ProxyCredentials(String user, String password) {
    private static final String FLAG = "-upstream-proxy-auth";

    public ProxyCredentials {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
    }

    /**
     * Reads {@code source}.
     *
     * @param env environment lookup
     * @throws shaper.config.ConfigException naming the flag and the source, never the value
     */
    public static ProxyCredentials resolve(String source, Function<String, String> env) {
        AuthSource parsed = AuthSource.parse(FLAG, source, false);
        String secret = Secrets.resolve(FLAG, parsed, env);
        int colon = secret.indexOf(':');
        if (colon <= 0 || colon == secret.length() - 1) {
            throw new shaper.config.ConfigException(FLAG + " " + parsed.reference() + ": expected user:password, with neither part empty");
        }
        return new ProxyCredentials(secret.substring(0, colon), secret.substring(colon + 1));
    }

    /** The {@code Proxy-Authorization} value: {@code Basic base64(user:password)}, UTF-8 as RFC 7617 section 2.1 allows. */
    public String basic() {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** Who authenticates, never the password. */
    @Override
    public String toString() {
        return "ProxyCredentials[user=" + user + ", password=***]";
    }
}
