package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import shaper.config.ConfigException;
import shaper.limit.SystemTimeSource;
import shaper.testing.RunningShaper;

/**
 * Where the Redis password comes from: {@code -limiter-redis-auth env:VAR|file:PATH} holding
 * {@code user:password} or a password, and {@code SHAPER_REDIS_PASSWORD} as the default source,
 * checked against a real server that requires a password.
 */
class RedisAuthTest {
    private static final Duration BOUND = Duration.ofSeconds(20);

    @Test
    void theDefaultVariableStillAuthenticatesAndAWrongOneIsNamed() throws Exception {
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (RedisProcess redis = RedisProcess.launch((port, dir) -> {
            List<String> argv = new ArrayList<>(RedisProcess.plain(port, dir));
            argv.addAll(List.of("--requirepass", "from-the-env"));
            return argv;
        }, RedisProcess.SERVER_READY); SystemTimeSource time = new SystemTimeSource("auth-test")) {
            ClusterConfig cfg = new ClusterConfig(RedisEndpoint.parse(redis.url()), "auth", RedisFallback.LOCAL, Duration.ofSeconds(3),
                    Duration.ofSeconds(5), RedisSecurity.DEFAULT);
            try (ClusterBackend right = ClusterBackend.open(cfg, URI.create("http://127.0.0.1:1"), time,
                    Map.of(RedisEndpoint.PASSWORD_ENV, "from-the-env")::get, lines::add);
                 ClusterBackend wrong = ClusterBackend.open(cfg, URI.create("http://127.0.0.1:1"), time,
                         Map.of(RedisEndpoint.PASSWORD_ENV, "not-it")::get, lines::add)) {
                RunningShaper.await("the right password connects", BOUND, () -> right.snapshot().up());
                RunningShaper.await("the wrong one is refused", BOUND, () -> wrong.snapshot().lastFailure() != null);
                assertFalse(wrong.snapshot().up());
                assertTrue(wrong.snapshot().lastFailure().contains("authentication refused"), wrong.snapshot().lastFailure());
                assertTrue(lines.stream().noneMatch(l -> l.contains("from-the-env") || l.contains("not-it")), "no password logged: " + lines);
            }
        }
    }

    @Test
    void aSourceHoldsUserAndPasswordOrAPasswordAndAFilesTrailingNewlineIsIgnored() throws Exception {
        Path file = Files.createTempFile("redis-auth", ".txt");
        try {
            Files.writeString(file, "shaper:pa:ss\n");
            assertEquals(new RedisAuth("shaper", "pa:ss"), RedisAuth.read("file:" + file, k -> null));
            assertEquals(new RedisAuth(null, "just-a-password"), RedisAuth.read("env:MY_REDIS", Map.of("MY_REDIS", "just-a-password")::get));
            assertEquals(new RedisAuth(null, "pw"), RedisAuth.read(null, Map.of(RedisEndpoint.PASSWORD_ENV, "pw")::get));
            assertNull(RedisAuth.read(null, k -> null), "no variable, no AUTH");
            assertTrue(new RedisAuth("u", "secret").toString().contains("***") && !new RedisAuth("u", "secret").toString().contains("secret"));
            ConfigException unset = assertThrows(ConfigException.class, () -> RedisAuth.read("env:NOT_SET", k -> null));
            assertTrue(unset.getMessage().contains("NOT_SET"), unset.getMessage());
            ConfigException literal = assertThrows(ConfigException.class, () -> RedisAuth.checkSource("hunter2"));
            assertFalse(literal.getMessage().contains("hunter2"), "a password given by mistake is not echoed: " + literal.getMessage());
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
