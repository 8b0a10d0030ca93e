package shaper.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.cli.UsageException;
import shaper.config.ConfigException;

/** {@code ProbeServer.java}'s flags: Go-style spelling, defaults, errors, and a help text that lists every fixture. */
class ProbeCommandLineTest {
    private static final List<String> CONTRACT_PREFIXES = List.of("/ok", "/rate422", "/fmt422", "/fmt400", "/flaky422",
            "/flakybefore", "/flakyconn", "/unavail503", "/reject502", "/sse200limit", "/flakysse200", "/azurealways");

    @Test
    void helpListsEveryFixturePrefixWithItsSummary() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = ProbeMain.run(new String[] {"-h"}, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, code);
        String help = out.toString(StandardCharsets.UTF_8);
        for (Fixture f : Fixture.values()) {
            String firstWords = f.summary().substring(0, f.summary().indexOf(' ', 20));
            assertTrue(help.lines().anyMatch(l -> l.startsWith("  " + f.prefix() + " ") && l.contains(firstWords)),
                    f.prefix() + " missing from help:\n" + help);
        }
        for (String prefix : CONTRACT_PREFIXES) {
            assertTrue(Fixture.match(prefix).isPresent(), prefix);
            assertTrue(help.contains("  " + prefix + " "), prefix);
        }
        assertTrue(help.contains("POST /__probe/reset") && help.contains("GET /__probe/stats"), help);
    }

    @Test
    void defaultsMatchTheDocumentedValues() {
        ProbeConfig c = ProbeMain.parse(List.of());
        assertEquals("127.0.0.1", c.bind().host());
        assertEquals(15722, c.bind().port());
        assertEquals(ProbeConfig.defaults(15722), c);
    }

    @Test
    void goStyleFlagsInBothSpellings() {
        ProbeConfig c = ProbeMain.parse(List.of("-port", "9000", "--reply=hi there", "-failures=4", "-retry-after", "3s",
                "-sse-interval=50ms", "--slow-delay", "1m30s", "-burst-status", "502"));
        assertEquals(9000, c.bind().port());
        assertEquals("hi there", c.reply());
        assertEquals(4, c.failures());
        assertEquals(Duration.ofSeconds(3), c.retryAfter());
        assertEquals(Duration.ofMillis(50), c.sseInterval());
        assertEquals(Duration.ofSeconds(90), c.slowDelay());
        assertEquals(502, c.burstStatus());
    }

    @Test
    void portOverridesThePortOfBind() {
        ProbeConfig c = ProbeMain.parse(List.of("-bind", "[::1]:7000", "-port", "7001"));
        assertEquals("::1", c.bind().host());
        assertEquals(7001, c.bind().port());
        assertEquals(7000, ProbeMain.parse(List.of("-bind", "localhost:7000")).bind().port());
    }

    @Test
    void badValuesAreConfigErrorsNamingTheFlag() {
        assertEquals("-failures: -1 (expected: >= 0)",
                assertThrows(ConfigException.class, () -> ProbeMain.parse(List.of("-failures", "-1"))).getMessage());
        assertEquals("-burst-status: 404 (expected: 500..599)",
                assertThrows(ConfigException.class, () -> ProbeMain.parse(List.of("-burst-status", "404"))).getMessage());
        assertEquals("-port: 70000 (expected: 0..65535)",
                assertThrows(ConfigException.class, () -> ProbeMain.parse(List.of("-port", "70000"))).getMessage());
        assertTrue(assertThrows(ConfigException.class, () -> ProbeMain.parse(List.of("-bind", "nohost")))
                .getMessage().startsWith("-bind: "));
    }

    @Test
    void usageErrorsExit2AndBadValuesExit1() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(2, ProbeMain.run(new String[] {"-bogus"}, System.out, e));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("-h"), err.toString(StandardCharsets.UTF_8));
        assertEquals(2, ProbeMain.run(new String[] {"-sse-interval", "5"}, System.out, e));
        assertEquals(1, ProbeMain.run(new String[] {"-reply", " "}, System.out, e));
        assertThrows(UsageException.class, () -> ProbeMain.parse(List.of("-port")));
    }
}
