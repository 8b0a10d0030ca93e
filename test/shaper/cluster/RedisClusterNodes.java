package shaper.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import shaper.testing.RunningShaper;
import shaper.testing.TestNet;

/**
 * A three-master Redis Cluster on free loopback ports (each node's bus port chosen free too),
 * created with {@code redis-cli --cluster create}, and the moves a test makes on it: which node
 * owns a slot, and a live migration of one slot to another node, key by key, as an operator's
 * resharding does it. Stopped node by node, by PID.
 */
final class RedisClusterNodes implements AutoCloseable {
    private static final Duration READY_BOUND = Duration.ofSeconds(60);
    final List<RedisProcess> nodes = new ArrayList<>();

    static RedisClusterNodes start() throws Exception {
        RedisClusterNodes c = new RedisClusterNodes();
        try {
            for (int i = 0; i < 3; i++) {
                int bus = TestNet.freePort();
                c.nodes.add(RedisProcess.launch((port, dir) -> {
                    List<String> argv = RedisProcess.plain(port, dir);
                    argv.addAll(List.of("--cluster-enabled", "yes", "--cluster-config-file", dir.resolve("nodes.conf").toString(),
                            "--cluster-port", Integer.toString(bus), "--cluster-node-timeout", "5000"));
                    return argv;
                }, RedisProcess.SERVER_READY));
            }
            List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            c.nodes.forEach(n -> create.add("127.0.0.1:" + n.port()));
            create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
            Process p = new ProcessBuilder(create).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("redis-cli --cluster create failed: " + out);
            }
            for (RedisProcess n : c.nodes) {
                RunningShaper.await("cluster state ok on " + n.port(), READY_BOUND,
                        () -> c.admin(n, j -> j.clusterInfo()).contains("cluster_state:ok"));
            }
            return c;
        } catch (Exception | AssertionError e) {
            c.close();
            throw e;
        }
    }

    /** {@code redis-cluster://} with every node as a seed. */
    String url() {
        return "redis-cluster://" + String.join(",", nodes.stream().map(n -> "127.0.0.1:" + n.port()).toList());
    }

    interface AdminCall<T> {
        T on(Jedis j);
    }

    <T> T admin(RedisProcess node, AdminCall<T> call) {
        try (Jedis j = new Jedis("127.0.0.1", node.port(), 5000)) {
            return call.on(j);
        }
    }

    private String id(RedisProcess node) {
        return admin(node, j -> new String((byte[]) j.sendCommand(Protocol.Command.CLUSTER, "MYID"), StandardCharsets.UTF_8));
    }

    int slotOf(String key) {
        return admin(nodes.getFirst(), j -> (int) j.clusterKeySlot(key));
    }

    /** The node serving {@code slot}, per the first node's view. */
    RedisProcess owner(int slot) {
        for (RedisProcess n : nodes) {
            String mine = admin(n, j -> j.clusterNodes()).lines().filter(l -> l.contains("myself")).findFirst().orElseThrow();
            String[] f = mine.split(" ");
            for (int i = 8; i < f.length; i++) {
                String[] range = f[i].split("-");
                if (range[0].startsWith("[")) {
                    continue;
                }
                int lo = Integer.parseInt(range[0]);
                int hi = range.length > 1 ? Integer.parseInt(range[1]) : lo;
                if (slot >= lo && slot <= hi) {
                    return n;
                }
            }
        }
        throw new IllegalStateException("no node serves slot " + slot);
    }

    /**
     * Moves {@code slot} from its owner to {@code target} while clients use it: IMPORTING and
     * MIGRATING, every key moved with MIGRATE (clients meanwhile get ASK or TRYAGAIN), then the
     * slot assigned to the target on every node (clients then get MOVED).
     */
    void migrate(int slot, RedisProcess target) {
        RedisProcess source = owner(slot);
        String sourceId = id(source);
        String targetId = id(target);
        admin(target, j -> j.sendCommand(Protocol.Command.CLUSTER, "SETSLOT", Integer.toString(slot), "IMPORTING", sourceId));
        admin(source, j -> j.sendCommand(Protocol.Command.CLUSTER, "SETSLOT", Integer.toString(slot), "MIGRATING", targetId));
        while (true) {
            List<String> keys = admin(source, j -> j.clusterGetKeysInSlot(slot, 100));
            if (keys.isEmpty()) {
                break;
            }
            List<String> args = new ArrayList<>(List.of("127.0.0.1", Integer.toString(target.port()), "", "0", "5000", "KEYS"));
            args.addAll(keys);
            admin(source, j -> j.sendCommand(Protocol.Command.MIGRATE, args.toArray(String[]::new)));
        }
        for (RedisProcess n : List.of(target, source)) {
            admin(n, j -> j.sendCommand(Protocol.Command.CLUSTER, "SETSLOT", Integer.toString(slot), "NODE", targetId));
        }
        for (RedisProcess n : nodes) {
            if (n != target && n != source) {
                admin(n, j -> j.sendCommand(Protocol.Command.CLUSTER, "SETSLOT", Integer.toString(slot), "NODE", targetId));
            }
        }
    }

    @Override
    public void close() throws Exception {
        for (RedisProcess n : nodes) {
            n.close();
        }
    }
}
