package shaper.cluster;

import java.net.URI;

import shaper.config.ConfigException;

/**
 * A parsed {@code redis://host:port[/db]}. The password, if the server needs one, is read from the
 * environment variable {@value #PASSWORD_ENV} so it never appears in argv.
 *
 * @param host not null
 * @param port 6379 when the URI has none
 * @param db   database number, 0 when the URI has no path
 */
public record RedisEndpoint(String host, int port, int db) {
    /** Environment variable holding the Redis password (optional). */
    public static final String PASSWORD_ENV = "SHAPER_REDIS_PASSWORD";

    public static RedisEndpoint of(URI uri) {
        int port = uri.getPort() == -1 ? 6379 : uri.getPort();
        String path = uri.getPath() == null ? "" : uri.getPath().replaceAll("^/+|/+$", "");
        int db;
        try {
            db = path.isEmpty() ? 0 : Integer.parseInt(path);
        } catch (NumberFormatException e) {
            throw new ConfigException("-limiter-backend: database must be a number, got \"" + path + "\"");
        }
        if (db < 0) {
            throw new ConfigException("-limiter-backend: database must be >= 0, got " + db);
        }
        return new RedisEndpoint(uri.getHost(), port, db);
    }

    /** {@code redis://host:port/db}: safe to log (never holds a password). */
    @Override
    public String toString() {
        return "redis://" + host + ":" + port + "/" + db;
    }
}
