package shaper.reload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.cli.CommandLineParser;
import shaper.cli.Invocation;
import shaper.settings.ShaperConfig;

/** Which providers a reload adds, removes and changes, and which settings wait for a restart. */
class ConfigDiffTest {
    private static ShaperConfig config(String... argv) {
        return assertInstanceOf(Invocation.Run.class, CommandLineParser.parse(List.of(argv))).config();
    }

    @Test
    void providersAreMatchedByName() {
        ShaperConfig before = config("--provider=a", "-upstream", "http://127.0.0.1:1", "-prefix", "/a",
                "--provider=b", "-upstream", "http://127.0.0.1:2", "-prefix", "/b",
                "--provider=c", "-upstream", "http://127.0.0.1:3", "-prefix", "/c");
        ShaperConfig after = config("--provider=a", "-upstream", "http://127.0.0.1:1", "-prefix", "/a",
                "--provider=c", "-upstream", "http://127.0.0.1:3", "-prefix", "/c", "-concurrency", "9",
                "--provider=d", "-upstream", "http://127.0.0.1:4", "-prefix", "/d");
        ConfigDiff diff = ConfigDiff.of(before, after);
        assertEquals(List.of("d"), diff.added());
        assertEquals(List.of("b"), diff.removed());
        assertEquals(List.of("c"), diff.changed());
        assertEquals(List.of(), diff.keptUntilRestart());
        assertEquals(after, diff.applied());
    }

    @Test
    void listenerSettingsAndTheLimiterBackendKeepTheirRunningValues() {
        ShaperConfig before = config("-bind", "127.0.0.1:8080", "-upstream", "http://127.0.0.1:1");
        ShaperConfig after = config("-bind", "127.0.0.1:9090", "-metrics-bind", "127.0.0.1:9091", "-shutdown-grace", "5s",
                "-upstream", "http://127.0.0.1:1", "-limiter-backend", "redis://127.0.0.1:6379", "-client-key", "env:K");
        ConfigDiff diff = ConfigDiff.of(before, after);
        assertEquals(before.server().bind(), diff.applied().server().bind());
        assertEquals(before.server().metricsBind(), diff.applied().server().metricsBind());
        assertEquals(before.server().shutdownGrace(), diff.applied().server().shutdownGrace());
        assertEquals(List.of("env:K"), diff.applied().server().clientKeys(), "client keys change live");
        assertEquals(before.providers().get(0).cluster(), diff.applied().providers().get(0).cluster());
        String kept = String.join("; ", diff.keptUntilRestart());
        assertTrue(kept.contains("-bind 127.0.0.1:8080 (file: 127.0.0.1:9090)"), kept);
        assertTrue(kept.contains("-metrics-bind off (file: 127.0.0.1:9091)"), kept);
        assertTrue(kept.contains("-shutdown-grace") && kept.contains("-limiter-backend"), kept);
        assertTrue(diff.summary().contains("kept until restart"), diff.summary());
    }
}
