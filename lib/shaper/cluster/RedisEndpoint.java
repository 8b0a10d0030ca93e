package shaper.cluster;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import shaper.config.ConfigException;

/**
 * Where a provider's limiters live ({@code -limiter-backend}), parsed and validated once. Four
 * kinds: one server in plain text or TLS, a master found through Sentinel, or a Redis Cluster.
 * No kind carries credentials: a password in the URL would show in {@code ps}, so it is refused
 * and comes from {@code -limiter-redis-auth} (or {@value #PASSWORD_ENV}) instead. Every
 * {@code toString} is safe to log.
 */
public sealed interface RedisEndpoint {
    /** Environment variable holding the Redis password (or {@code user:password}) when {@code -limiter-redis-auth} is not given. */
    String PASSWORD_ENV = "SHAPER_REDIS_PASSWORD";

    /** A host and port of a server, sentinel or cluster node. */
    record Node(String host, int port) {
        @Override
        public String toString() {
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }

    /** {@code redis://host:port[/db]} or, with {@code tls}, {@code rediss://host:port[/db]}. */
    record Standalone(Node node, int db, boolean tls) implements RedisEndpoint {
        @Override
        public String kind() {
            return tls ? "rediss" : "redis";
        }

        @Override
        public String toString() {
            return kind() + "://" + node + "/" + db;
        }
    }

    /** {@code redis-sentinel://h:p[,h:p...]/MASTER[/db]}: the master the sentinels name, followed through failovers. */
    record Sentinel(List<Node> sentinels, String master, int db) implements RedisEndpoint {
        public Sentinel {
            sentinels = List.copyOf(sentinels);
        }

        @Override
        public String kind() {
            return "redis-sentinel";
        }

        @Override
        public String toString() {
            return kind() + "://" + join(sentinels) + "/" + master + "/" + db;
        }
    }

    /** {@code redis-cluster://h:p[,h:p...]}: seed nodes of a Redis Cluster (database 0, the only one a cluster has). */
    record Cluster(List<Node> seeds) implements RedisEndpoint {
        public Cluster {
            seeds = List.copyOf(seeds);
        }

        @Override
        public String kind() {
            return "redis-cluster";
        }

        @Override
        public String toString() {
            return kind() + "://" + join(seeds);
        }
    }

    /** The URL scheme: {@code redis}, {@code rediss}, {@code redis-sentinel} or {@code redis-cluster}. */
    String kind();

    /** Whether connections use TLS. */
    default boolean tls() {
        return this instanceof Standalone s && s.tls();
    }

    /** Parses the flag value; every mistake is a {@link ConfigException} naming the flag. */
    static RedisEndpoint parse(String url) {
        int colon = url.indexOf("://");
        if (colon < 0) {
            throw bad(url, "not a URL");
        }
        String scheme = url.substring(0, colon).toLowerCase(Locale.ROOT);
        String rest = url.substring(colon + 3);
        int slash = rest.indexOf('/');
        String authority = slash < 0 ? rest : rest.substring(0, slash);
        String path = slash < 0 ? "" : rest.substring(slash + 1);
        if (rest.contains("@")) {
            throw new ConfigException("-limiter-backend: credentials in the URL are refused (they would show in ps and in logs);"
                    + " put \"user:password\" or the password in a file or an environment variable and pass"
                    + " -limiter-redis-auth file:PATH or env:VAR (default: the variable " + PASSWORD_ENV + ")");
        }
        if (url.contains("?") || url.contains("#")) {
            throw bad(url, "no query or fragment expected");
        }
        return switch (scheme) {
            case "redis", "rediss" -> {
                List<Node> nodes = nodes(url, authority);
                if (nodes.size() != 1) {
                    throw bad(url, "one host:port expected (several are for redis-sentinel:// or redis-cluster://)");
                }
                yield new Standalone(nodes.getFirst(), db(url, path), scheme.equals("rediss"));
            }
            case "redis-sentinel" -> {
                String[] parts = path.split("/", -1);
                if (path.isEmpty() || parts[0].isEmpty() || parts.length > 2) {
                    throw bad(url, "expected redis-sentinel://host:port[,host:port...]/MASTER_NAME[/db]");
                }
                yield new Sentinel(nodes(url, authority), parts[0], parts.length == 2 ? db(url, parts[1]) : 0);
            }
            case "redis-cluster" -> {
                if (!path.isEmpty()) {
                    throw bad(url, "a Redis Cluster has only database 0: no path expected");
                }
                yield new Cluster(nodes(url, authority));
            }
            default -> throw bad(url, "scheme must be redis, rediss, redis-sentinel or redis-cluster");
        };
    }

    private static List<Node> nodes(String url, String authority) {
        List<Node> nodes = new ArrayList<>();
        for (String hp : authority.split(",", -1)) {
            URI u;
            try {
                u = new URI("redis://" + hp);
            } catch (URISyntaxException e) {
                throw bad(url, "\"" + hp + "\" is not host:port");
            }
            if (u.getHost() == null || hp.isBlank()) {
                throw bad(url, "\"" + hp + "\" is not host:port");
            }
            String host = u.getHost().startsWith("[") ? u.getHost().substring(1, u.getHost().length() - 1) : u.getHost();
            nodes.add(new Node(host, u.getPort() == -1 ? 6379 : u.getPort()));
        }
        return nodes;
    }

    private static int db(String url, String path) {
        String p = path.replaceAll("/+$", "");
        if (p.isEmpty()) {
            return 0;
        }
        try {
            int db = Integer.parseInt(p);
            if (db >= 0) {
                return db;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw bad(url, "database must be a number >= 0, got \"" + p + "\"");
    }

    private static String join(List<Node> nodes) {
        return nodes.stream().map(Node::toString).collect(Collectors.joining(","));
    }

    private static ConfigException bad(String url, String why) {
        // the URL is echoed only when it holds no credentials (checked before any other complaint)
        String shown = url.contains("@") ? "(URL with credentials)" : url;
        return new ConfigException("-limiter-backend " + shown + ": " + why);
    }
}
