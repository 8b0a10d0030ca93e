package shaper.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** The started shaper's command line and the variables it comes from. */
class ShaperArgsTest {
    private static final Path HOME = Path.of("/home/u");
    private static final Path TMP = Path.of("/tmp/t");

    @Test
    void launcherProxyMirrorsArProxyDefaults() throws LaunchException {
        LauncherEnv env = LauncherEnv.parse(Map.of("SHAPER_UPSTREAM", "https://gw.example"), HOME, TMP);
        assertEquals(List.of("-bind", "127.0.0.1:15720", "-upstream", "https://gw.example",
                "-retry", "7", "-retry-wait-min", "2s", "-retry-skip-429=false",
                "-big-ctx-tokens", "60000", "-big-ctx-concurrency", "1"), ShaperArgs.proxyArgs(env.proxy()));
    }

    @Test
    void everyVariableReachesItsFlag() throws LaunchException {
        LauncherEnv env = LauncherEnv.parse(Map.of("SHAPER_PORT", "16000", "SHAPER_BIG_CTX_TOKENS", "0",
                "SHAPER_BIG_CTX_CONCURRENCY", "3", "SHAPER_RESPONSES_UPSTREAM", "http://127.0.0.1:9",
                "SHAPER_MIRROR_LOG", "/var/log/mirror.log"), HOME, TMP);
        assertEquals(List.of("-bind", "127.0.0.1:16000", "-upstream", ProxyOptions.DEFAULT_UPSTREAM,
                "-retry", "7", "-retry-wait-min", "2s", "-retry-skip-429=false",
                "-big-ctx-tokens", "0", "-big-ctx-concurrency", "3",
                "-responses-upstream", "http://127.0.0.1:9", "-log-file", "/var/log/mirror.log"), ShaperArgs.proxyArgs(env.proxy()));
    }

    @Test
    void aConfigFileConfiguresTheShaperAloneButForItsPort(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("shaper.yaml"), "upstream: https://gw.example\n");
        LauncherEnv env = LauncherEnv.parse(Map.of("SHAPER_CONFIG", file.toString(), "SHAPER_PORT", "16001",
                "SHAPER_UPSTREAM", "https://ignored.example", "SHAPER_MIRROR_LOG", "/var/log/mirror.log"), HOME, TMP);
        assertEquals(List.of("-config", file.toString(), "-bind", "127.0.0.1:16001"), ShaperArgs.proxyArgs(env.proxy()));
    }

    @Test
    void aMissingConfigFileStopsTheLaunchNamingTheVariable(@org.junit.jupiter.api.io.TempDir Path dir) {
        try {
            LauncherEnv.parse(Map.of("SHAPER_CONFIG", dir.resolve("absent.yaml").toString()), HOME, TMP);
            throw new AssertionError("accepted a missing SHAPER_CONFIG");
        } catch (LaunchException e) {
            assertTrue(e.getMessage().startsWith("SHAPER_CONFIG: "), e.getMessage());
            assertEquals(1, e.exitCode());
        }
    }

    @Test
    void commandRunsTheProjectsJbangInANewSessionWhenSetsidExists() throws LaunchException {
        ProxyOptions o = LauncherEnv.parse(Map.of(), HOME, TMP).proxy();
        List<String> expected = new ArrayList<>(List.of("/usr/bin/setsid", "/repo/jbang", "Shaper.java"));
        expected.addAll(ShaperArgs.proxyArgs(o));
        assertEquals(expected, ShaperArgs.command(Path.of("/repo"), o, Optional.of(Path.of("/usr/bin/setsid"))));
        assertEquals(expected.subList(1, expected.size()), ShaperArgs.command(Path.of("/repo"), o, Optional.empty()));
    }

    @Test
    void defaultsFollowTheContract() throws LaunchException {
        LauncherEnv env = LauncherEnv.parse(Map.of(), HOME, TMP);
        assertEquals(15720, env.proxy().port());
        assertEquals("http://127.0.0.1:15720", env.proxy().baseUrl());
        assertEquals(TMP.resolve("shaper-15720.log"), env.proxy().log());
        assertEquals(Optional.empty(), env.proxy().mirrorLog());
        assertEquals(HOME, env.home());
        assertEquals(0, env.depth());
    }

    @Test
    void logNameFollowsThePortAndTmpdirIsHonoured() throws LaunchException {
        LauncherEnv env = LauncherEnv.parse(Map.of("SHAPER_PORT", "15999", "TMPDIR", "/private/tmp", "HOME", "/h"), HOME, TMP);
        assertEquals(Path.of("/private/tmp/shaper-15999.log"), env.proxy().log());
        assertEquals(Path.of("/h"), env.home());
        assertEquals(Path.of("/l.log"), LauncherEnv.parse(Map.of("SHAPER_LOG", "/l.log"), HOME, TMP).proxy().log());
    }

    @Test
    void unusableNumbersNameTheVariable() {
        assertRejected(Map.of("SHAPER_PORT", "0"), "SHAPER_PORT: \"0\" (expected: an integer 1..65535)");
        assertRejected(Map.of("SHAPER_PORT", "http"), "SHAPER_PORT: \"http\" (expected: an integer 1..65535)");
        assertRejected(Map.of("SHAPER_BIG_CTX_TOKENS", "-1"), "SHAPER_BIG_CTX_TOKENS: \"-1\" (expected: an integer >= 0)");
        assertRejected(Map.of("SHAPER_BIG_CTX_CONCURRENCY", "0"), "SHAPER_BIG_CTX_CONCURRENCY: \"0\" (expected: an integer >= 1)");
    }

    @Test
    void everyLauncherVariableIsASHAPERVariableWithADefaultAndAMeaning() {
        for (LauncherVariable v : LauncherVariable.values()) {
            assertTrue(v.variable().startsWith("SHAPER_"), v.variable());
            assertTrue(!v.defaultText().isBlank() && !v.meaning().isBlank(), v.variable());
        }
    }

    private static void assertRejected(Map<String, String> env, String message) {
        try {
            LauncherEnv.parse(env, HOME, TMP);
            throw new AssertionError("accepted " + env);
        } catch (LaunchException e) {
            assertEquals(message, e.getMessage());
            assertEquals(1, e.exitCode());
        }
    }
}
