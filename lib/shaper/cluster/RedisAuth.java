package shaper.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

import shaper.config.ConfigException;

/**
 * The credentials the shaper presents to Redis ({@code AUTH [user] password}), read once at
 * startup from {@code -limiter-redis-auth env:VAR|file:PATH}, or by default from the environment
 * variable {@value RedisEndpoint#PASSWORD_ENV}. The value is {@code user:password} (an ACL user)
 * or a bare password (the {@code default} user); one trailing newline of a file is ignored. A
 * password that itself contains a colon is written {@code default:that:password}.
 * {@code toString} never shows the password.
 *
 * @param user     the ACL user, or {@code null} for the {@code default} user
 * @param password never empty
 */
public record RedisAuth(String user, String password) {
    public RedisAuth {
        if (password == null || password.isEmpty()) {
            throw new IllegalArgumentException("password: empty (expected: at least one character)");
        }
    }

    /**
     * Validates the flag's syntax at startup without reading the secret.
     *
     * @throws ConfigException naming the flag
     */
    public static void checkSource(String source) {
        if (source == null) {
            return;
        }
        if (!(source.startsWith("env:") || source.startsWith("file:")) || source.endsWith(":")) {
            // the value is not echoed: a password given here by mistake must not reach the log
            throw new ConfigException("-limiter-redis-auth: expected env:VAR or file:PATH (the secret itself never goes on the command line)");
        }
    }

    /**
     * Reads the credentials.
     *
     * @param source {@code env:VAR}, {@code file:PATH}, or {@code null} for {@value RedisEndpoint#PASSWORD_ENV}
     * @return null when the default variable is unset or empty (no AUTH is sent)
     * @throws ConfigException the named variable is unset, the file unreadable, or the value empty
     */
    public static RedisAuth read(String source, Function<String, String> env) {
        if (source == null) {
            String value = env.apply(RedisEndpoint.PASSWORD_ENV);
            return value == null || value.isEmpty() ? null : parse(value, "environment variable " + RedisEndpoint.PASSWORD_ENV);
        }
        checkSource(source);
        if (source.startsWith("env:")) {
            String name = source.substring(4);
            String value = env.apply(name);
            if (value == null || value.isEmpty()) {
                throw new ConfigException("-limiter-redis-auth env:" + name + ": the variable is unset or empty");
            }
            return parse(value, "environment variable " + name);
        }
        Path file = Path.of(source.substring(5));
        String value;
        try {
            value = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException("-limiter-redis-auth file:" + file + ": cannot read it (" + e.getClass().getSimpleName() + ")");
        }
        if (value.endsWith("\n")) {
            value = value.substring(0, value.length() - (value.endsWith("\r\n") ? 2 : 1));
        }
        if (value.isEmpty()) {
            throw new ConfigException("-limiter-redis-auth file:" + file + ": the file is empty");
        }
        return parse(value, "file " + file);
    }

    private static RedisAuth parse(String value, String from) {
        int colon = value.indexOf(':');
        if (colon < 0) {
            return new RedisAuth(null, value);
        }
        String user = value.substring(0, colon);
        String password = value.substring(colon + 1);
        if (user.isEmpty() || password.isEmpty()) {
            throw new ConfigException("Redis credentials from " + from + ": expected user:password or a password, with neither part empty");
        }
        return new RedisAuth(user, password);
    }

    /** Who authenticates, never the password. */
    @Override
    public String toString() {
        return "RedisAuth[user=" + (user == null ? "default" : user) + ", password=***]";
    }
}
