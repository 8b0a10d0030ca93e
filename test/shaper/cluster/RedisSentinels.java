package shaper.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import redis.clients.jedis.Jedis;
import shaper.testing.RunningShaper;

/**
 * One master, one replica and three sentinels monitoring them as {@value #MASTER}, on free loopback
 * ports, and a forced failover ({@code SENTINEL FAILOVER}) as an operator or a crash triggers one.
 * Every process is stopped by its own PID.
 */
final class RedisSentinels implements AutoCloseable {
    static final String MASTER = "shapermaster";
    private static final Duration BOUND = Duration.ofSeconds(60);

    final RedisProcess master;
    final RedisProcess replica;
    final List<RedisProcess> sentinels = new ArrayList<>();

    private RedisSentinels(RedisProcess master, RedisProcess replica) {
        this.master = master;
        this.replica = replica;
    }

    static RedisSentinels start() throws Exception {
        RedisProcess master = RedisProcess.startFresh();
        RedisSentinels s = null;
        try {
            RedisProcess replica = RedisProcess.launch((port, dir) -> {
                List<String> argv = RedisProcess.plain(port, dir);
                argv.addAll(List.of("--replicaof", "127.0.0.1", Integer.toString(master.port())));
                return argv;
            }, RedisProcess.SERVER_READY);
            s = new RedisSentinels(master, replica);
            for (int i = 0; i < 3; i++) {
                s.sentinels.add(RedisProcess.launch((port, dir) -> {
                    Path conf = dir.resolve("sentinel.conf");
                    Files.writeString(conf, "port " + port + "\nbind 127.0.0.1\ndir " + dir + "\n"
                            + "sentinel monitor " + MASTER + " 127.0.0.1 " + master.port() + " 2\n"
                            + "sentinel down-after-milliseconds " + MASTER + " 3000\n"
                            + "sentinel failover-timeout " + MASTER + " 20000\n");
                    return List.of("redis-server", conf.toString(), "--sentinel");
                }, RedisProcess.SENTINEL_READY));
            }
            RedisSentinels set = s;
            RunningShaper.await("the replica in sync and known to every sentinel", BOUND, set::replicaReady);
            return s;
        } catch (Exception | AssertionError e) {
            if (s != null) {
                s.close();
            } else {
                master.close();
            }
            throw e;
        }
    }

    /** {@code redis-sentinel://} naming every sentinel. */
    String url() {
        return "redis-sentinel://" + String.join(",", sentinels.stream().map(n -> "127.0.0.1:" + n.port()).toList()) + "/" + MASTER;
    }

    /** The port of the master the sentinels name now. */
    int currentMasterPort() {
        try (Jedis j = new Jedis("127.0.0.1", sentinels.getFirst().port(), 5000)) {
            return Integer.parseInt(j.sentinelGetMasterAddrByName(MASTER).get(1));
        }
    }

    /** Forces a failover to the replica and waits until the sentinels name it. */
    void failover() {
        int before = currentMasterPort();
        try (Jedis j = new Jedis("127.0.0.1", sentinels.getFirst().port(), 5000)) {
            j.sentinelFailover(MASTER);
        }
        RunningShaper.await("the sentinels name the new master", BOUND, () -> currentMasterPort() != before);
    }

    private boolean replicaReady() {
        try (Jedis m = new Jedis("127.0.0.1", master.port(), 5000)) {
            if (!m.info("replication").contains("state=online")) {
                return false;
            }
        }
        for (RedisProcess s : sentinels) {
            try (Jedis j = new Jedis("127.0.0.1", s.port(), 5000)) {
                List<Map<String, String>> replicas = j.sentinelReplicas(MASTER);
                if (replicas.isEmpty() || replicas.getFirst().getOrDefault("flags", "").contains("down")
                        || !"ok".equals(replicas.getFirst().get("master-link-status"))) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public void close() throws Exception {
        for (RedisProcess s : sentinels) {
            s.close();
        }
        replica.close();
        master.close();
    }
}
