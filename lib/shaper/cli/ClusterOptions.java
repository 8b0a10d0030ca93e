package shaper.cli;

import java.nio.file.Path;
import java.time.Duration;

import picocli.CommandLine.Option;
import shaper.cluster.ClusterConfig;
import shaper.cluster.RedisEndpoint;
import shaper.cluster.RedisFallback;
import shaper.cluster.RedisSecurity;

/** Provider-scope flags of cluster mode: where the provider's limiters keep their slots, and how to reach it. */
public final class ClusterOptions {
    @Option(names = {"-limiter-backend", "--limiter-backend"}, paramLabel = "URL",
            description = "Share this provider's limits with other instances through redis://host:port[/db], rediss://host:port[/db] (TLS),"
                    + " redis-sentinel://host:port[,host:port...]/MASTER[/db] or redis-cluster://host:port[,host:port...] (default: in-process)")
    String backend;

    @Option(names = {"-limiter-namespace", "--limiter-namespace"}, paramLabel = "NAME",
            description = "Redis key prefix shared by the instances of one budget (default: derived from -upstream)")
    String namespace;

    @Option(names = {"-limiter-redis-fallback", "--limiter-redis-fallback"}, paramLabel = "MODE", defaultValue = "local",
            description = "While Redis is unreachable: local (each instance its own limits) or closed (503) (default ${DEFAULT-VALUE})")
    String fallback;

    @Option(names = {"-limiter-lease", "--limiter-lease"}, paramLabel = "DURATION", defaultValue = "15s",
            description = "Lifetime of a permit in Redis without renewal: how long a crashed instance's slots stay taken (default ${DEFAULT-VALUE})")
    Duration lease;

    @Option(names = {"-limiter-redis-timeout", "--limiter-redis-timeout"}, paramLabel = "DURATION", defaultValue = "2s",
            description = "A Redis call slower than this counts as Redis unreachable: the fallback takes over (default ${DEFAULT-VALUE})")
    Duration timeout;

    @Option(names = {"-limiter-redis-auth", "--limiter-redis-auth"}, paramLabel = "env:VAR|file:PATH",
            description = "Where the Redis credentials are: user:password (an ACL user) or a password (default: the variable "
                    + RedisEndpoint.PASSWORD_ENV + ", if set)")
    String auth;

    @Option(names = {"-limiter-redis-ca", "--limiter-redis-ca"}, paramLabel = "FILE",
            description = "PEM CA certificates to trust for rediss:// instead of the system trust store")
    Path ca;

    @Option(names = {"-limiter-redis-cert", "--limiter-redis-cert"}, paramLabel = "FILE",
            description = "PEM client certificate for mutual TLS with rediss:// (with -limiter-redis-key)")
    Path cert;

    @Option(names = {"-limiter-redis-key", "--limiter-redis-key"}, paramLabel = "FILE",
            description = "PKCS#8 PEM private key of -limiter-redis-cert")
    Path key;

    ClusterConfig toConfig() {
        RedisEndpoint endpoint = backend == null ? null : RedisEndpoint.parse(backend);
        return new ClusterConfig(endpoint, namespace, RedisFallback.parse(fallback), lease, timeout, new RedisSecurity(auth, ca, cert, key));
    }
}
