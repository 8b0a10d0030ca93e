package shaper.cluster;

import java.nio.file.Path;

import shaper.config.ConfigException;

/**
 * Where the secrets and certificates of a provider's Redis link come from; only sources, so the
 * config can be printed and compared without holding a secret. Read by {@link ClusterBackend#open}.
 *
 * @param auth {@code env:VAR} or {@code file:PATH} ({@code -limiter-redis-auth}); null for {@value RedisEndpoint#PASSWORD_ENV}
 * @param ca   PEM CA certificates to trust instead of the system store ({@code -limiter-redis-ca}); null for the system store
 * @param cert PEM client certificate for mutual TLS ({@code -limiter-redis-cert}); null for none
 * @param key  its PKCS#8 PEM key ({@code -limiter-redis-key}); set exactly when {@code cert} is
 */
public record RedisSecurity(String auth, Path ca, Path cert, Path key) {
    /** No flag given: the password (if any) from {@value RedisEndpoint#PASSWORD_ENV}, the system trust store. */
    public static final RedisSecurity DEFAULT = new RedisSecurity(null, null, null, null);

    public RedisSecurity {
        RedisAuth.checkSource(auth);
        if ((cert == null) != (key == null)) {
            throw new ConfigException("-limiter-redis-cert and -limiter-redis-key go together (mutual TLS needs both)");
        }
    }

    /** Whether any TLS file was given (then the backend must be {@code rediss://}). */
    boolean tlsFiles() {
        return ca != null || cert != null;
    }

    /** The TLS setup, reading the files now. */
    RedisTls tls() {
        return RedisTls.of(ca, cert, key);
    }
}
