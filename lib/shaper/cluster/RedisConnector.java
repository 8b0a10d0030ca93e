package shaper.cluster;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.RedisSentinelClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * What differs between the kinds of {@link RedisEndpoint}: how the pooled client for the lease
 * scripts is built, where the grant subscription connects, and what "the current master" is.
 * Sentinel and Cluster clients talk to the network when built, so they are built by
 * {@link #connect()} on the link's supervisor thread, never at startup: a shaper started before
 * its Redis runs on the fallback until Redis answers. Thread-safe.
 */
abstract sealed class RedisConnector implements AutoCloseable {
    private static final int POOL_SIZE = 64;

    final JedisClientConfig config;
    final GenericObjectPoolConfig<Connection> pool;
    private volatile UnifiedJedis client;

    private RedisConnector(JedisClientConfig config, Duration timeout) {
        this.config = config;
        this.pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(POOL_SIZE);
        pool.setMaxIdle(POOL_SIZE);
        pool.setMinIdle(0);
        pool.setMaxWait(timeout.multipliedBy(2));
        pool.setJmxEnabled(false);
        pool.setTestOnBorrow(false);
    }

    // Jedis 8 marks the socket-factory TLS setters deprecated beside its newer SslOptions; they still take the
    // socket factory and parameters RedisTls builds as they are, and RedisTlsTest covers them. Kept until a
    // move to SslOptions is made with those tests, so the build prints no compiler note meanwhile.
    @SuppressWarnings("deprecation")
    static RedisConnector of(RedisEndpoint endpoint, Duration timeout, RedisAuth auth, RedisTls tls) {
        int ms = (int) timeout.toMillis();
        DefaultJedisClientConfig.Builder cfg = DefaultJedisClientConfig.builder().connectionTimeoutMillis(ms).socketTimeoutMillis(ms)
                .clientName("shaper");
        if (auth != null) {
            cfg.user(auth.user()).password(auth.password());
        }
        if (tls != null) {
            cfg.ssl(true).sslSocketFactory(tls.socketFactory()).sslParameters(tls.parameters());
        }
        return switch (endpoint) {
            case RedisEndpoint.Standalone s -> new Standalone(s, cfg.database(s.db()).build(), timeout);
            case RedisEndpoint.Sentinel s -> new Sentinel(s, cfg.database(s.db()).build(), timeout);
            case RedisEndpoint.Cluster c -> new Cluster(c, cfg.build(), timeout);
        };
    }

    /** The client for the lease scripts; null until {@link #connect()} first succeeded. */
    final UnifiedJedis client() {
        return client;
    }

    /**
     * Builds the client if needed and opens a fresh connection for the grant subscription, on a
     * node that receives every grant message (a PUBLISH reaches every node of a cluster, and a
     * master's replicas). The caller owns and closes it.
     */
    final Jedis connect() {
        if (client == null) {
            client = build();
        }
        return subscriber();
    }

    abstract UnifiedJedis build();

    abstract Jedis subscriber();

    /** Whether the subscriber connection is on a node that no longer receives every grant (Sentinel: not the current master). */
    boolean subscriberMoved() {
        return false;
    }

    /** Closes idle pooled connections: after an outage they point at a dead socket or a restarted server. */
    abstract void dropIdle();

    /** The server the scripts run on now (host:port), or the cluster's nodes; null before the first connection. */
    abstract String current();

    @Override
    public final void close() {
        UnifiedJedis c = client;
        if (c != null) {
            c.close();
        }
    }

    static HostAndPort hostAndPort(RedisEndpoint.Node n) {
        return new HostAndPort(n.host(), n.port());
    }

    private static final class Standalone extends RedisConnector {
        private final HostAndPort node;

        Standalone(RedisEndpoint.Standalone endpoint, JedisClientConfig config, Duration timeout) {
            super(config, timeout);
            this.node = hostAndPort(endpoint.node());
        }

        @Override
        UnifiedJedis build() {
            return RedisClient.builder().hostAndPort(node).clientConfig(config).poolConfig(pool).build();
        }

        @Override
        Jedis subscriber() {
            return new Jedis(node, config);
        }

        @Override
        void dropIdle() {
            ((RedisClient) client()).getPool().clear();
        }

        @Override
        String current() {
            return node.toString();
        }
    }

    /** The master the sentinels name; Jedis follows {@code +switch-master} and moves its pool. */
    private static final class Sentinel extends RedisConnector {
        private final RedisEndpoint.Sentinel endpoint;
        private final JedisClientConfig sentinelConfig;
        private volatile HostAndPort subscribedTo;

        Sentinel(RedisEndpoint.Sentinel endpoint, JedisClientConfig config, Duration timeout) {
            super(config, timeout);
            this.endpoint = endpoint;
            int ms = (int) timeout.toMillis();
            this.sentinelConfig = DefaultJedisClientConfig.builder().connectionTimeoutMillis(ms).socketTimeoutMillis(ms)
                    .clientName("shaper").build();
        }

        @Override
        UnifiedJedis build() {
            Set<HostAndPort> sentinels = new LinkedHashSet<>();
            endpoint.sentinels().forEach(n -> sentinels.add(hostAndPort(n)));
            return RedisSentinelClient.builder().masterName(endpoint.master()).sentinels(sentinels).clientConfig(config)
                    .sentinelClientConfig(sentinelConfig).poolConfig(pool).build();
        }

        /** On the master the pool uses, and only once it really is a master (during a failover the old one may still be named). */
        @Override
        Jedis subscriber() {
            HostAndPort master = ((RedisSentinelClient) client()).getCurrentMaster();
            Jedis sub = new Jedis(master, config);
            List<Object> role = sub.role();
            if (role.isEmpty() || !"master".equals(role.getFirst() instanceof byte[] b ? new String(b) : String.valueOf(role.getFirst()))) {
                sub.close();
                throw new JedisConnectionException("the master the sentinels named is not a master yet (failover in progress)");
            }
            subscribedTo = master;
            return sub;
        }

        /** The scripts moved to a new master (Jedis heard +switch-master) while the subscriber stayed on the old one. */
        @Override
        boolean subscriberMoved() {
            HostAndPort at = subscribedTo;
            UnifiedJedis c = client();
            return at != null && c != null && !at.equals(((RedisSentinelClient) c).getCurrentMaster());
        }

        @Override
        void dropIdle() {
            ((RedisSentinelClient) client()).getPrimaryNodesConnectionMap().values().forEach(p -> p.clear());
        }

        @Override
        String current() {
            UnifiedJedis c = client();
            return c == null ? null : ((RedisSentinelClient) c).getCurrentMaster().toString();
        }
    }

    /** Jedis keeps the slot map and follows MOVED and ASK; grant messages reach every node, so any node serves the subscription. */
    private static final class Cluster extends RedisConnector {
        private final RedisEndpoint.Cluster endpoint;
        private final Duration timeout;

        Cluster(RedisEndpoint.Cluster endpoint, JedisClientConfig config, Duration timeout) {
            super(config, timeout);
            this.endpoint = endpoint;
            this.timeout = timeout;
        }

        @Override
        UnifiedJedis build() {
            Set<HostAndPort> seeds = new LinkedHashSet<>();
            endpoint.seeds().forEach(n -> seeds.add(hostAndPort(n)));
            return RedisClusterClient.builder().nodes(seeds).clientConfig(config).poolConfig(pool)
                    .maxTotalRetriesDuration(timeout).build();
        }

        @Override
        Jedis subscriber() {
            JedisConnectionException last = null;
            for (String node : new TreeSet<>(((RedisClusterClient) client()).getClusterNodes().keySet())) {
                Jedis sub = new Jedis(HostAndPort.from(node), config);
                try {
                    sub.ping();
                    return sub;
                } catch (JedisConnectionException e) {
                    sub.close();
                    last = e;
                }
            }
            throw last != null ? last : new JedisConnectionException("no cluster node known");
        }

        @Override
        void dropIdle() {
            ((RedisClusterClient) client()).getClusterNodes().values().forEach(p -> p.clear());
        }

        @Override
        String current() {
            UnifiedJedis c = client();
            return c == null ? null : String.join(",", new TreeSet<>(((RedisClusterClient) c).getClusterNodes().keySet()));
        }
    }
}
