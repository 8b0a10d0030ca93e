package shaper.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.Version;
import shaper.config.BindAddress;
import shaper.main.ShaperMain;
import shaper.settings.ShaperConfig;

/** Go-style flags, the two exit codes and their messages. */
class CommandLineTest {
    private record Result(int code, String out, String err) {
    }

    private static Result run(String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ShaperMain.run(argv, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static ShaperConfig config(String... argv) {
        return assertInstanceOf(Invocation.Run.class, CommandLineParser.parse(List.of(argv))).config();
    }

    @Test
    void unknownFlagIsAUsageErrorWithAHintAtDashH() {
        Result r = run("-upstream", "http://127.0.0.1:1", "-no-such-flag");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("-no-such-flag"), r.err());
        assertTrue(r.err().contains("-h"), r.err());
    }

    @Test
    void strayPositionalArgumentIsAUsageError() {
        assertEquals(2, run("-upstream", "http://127.0.0.1:1", "extra").code());
    }

    @Test
    void missingUpstreamIsASemanticErrorNamingTheFlag() {
        Result r = run();
        assertEquals(1, r.code());
        assertEquals("shaper: -upstream is required\n", r.err());
    }

    @Test
    void badUpstreamValuesAreSemanticErrorsWithTheOriginalTexts() {
        assertEquals("shaper: -upstream URL must include scheme (http or https)\n", run("-upstream", "api.anthropic.com").err());
        assertEquals("shaper: -upstream scheme must be http or https, got \"ftp\"\n", run("-upstream", "ftp://x").err());
        assertEquals(1, run("-upstream", "http://").code());
    }

    @Test
    void badBindIsASemanticErrorNamingTheFlag() {
        Result r = run("-upstream", "http://127.0.0.1:1", "-bind", "127.0.0.1:99999");
        assertEquals(1, r.code());
        assertTrue(r.err().contains("-bind"), r.err());
    }

    @Test
    void bindWithoutANumericPortIsAUsageErrorAsTheReadmeSays() {
        Result r = run("-upstream", "http://127.0.0.1:1", "-bind", "127.0.0.1:abc");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("-bind") && r.err().contains("-h"), r.err());
    }

    @Test
    void logFileInAMissingDirectoryIsASemanticError() {
        Result r = run("-upstream", "http://127.0.0.1:1", "-log-file", "/nonexistent-dir-for-shaper/x.log");
        assertEquals(1, r.code());
        assertTrue(r.err().contains("-log-file"), r.err());
    }

    @Test
    void helpListsTheFlagsAndExitsZero() {
        for (String h : new String[] {"-h", "-help", "--help"}) {
            Result r = run(h);
            assertEquals(0, r.code(), h);
            assertTrue(r.out().contains("-upstream") && r.out().contains("-bind"), r.out());
        }
    }

    @Test
    void versionPrintsTheVersion() {
        Result r = run("-version");
        assertEquals(0, r.code());
        assertEquals(Version.SERVICE + " " + Version.VERSION + "\n", r.out());
    }

    @Test
    void goStyleAndDoubleDashSpellingsAndEqualsFormsAllParse() {
        assertEquals("http://a.example", config("-upstream", "http://a.example").providers().getFirst().upstream().toString());
        assertEquals("http://a.example", config("--upstream", "http://a.example").providers().getFirst().upstream().toString());
        assertEquals("http://a.example", config("-upstream=http://a.example").providers().getFirst().upstream().toString());
        assertEquals(new BindAddress("127.0.0.1", 9000), config("-upstream=http://a", "--bind=127.0.0.1:9000").server().bind());
    }

    @Test
    void bindDefaultsToLoopback8080() {
        assertEquals(new BindAddress("127.0.0.1", 8080), config("-upstream", "http://a").server().bind());
    }

    @Test
    void nonLoopbackBindWarnsAndLoopbackDoesNot() {
        assertTrue(BindAddress.parse(":8080").exposureWarning().orElseThrow().contains("not a loopback address"));
        assertTrue(BindAddress.parse("0.0.0.0:8080").exposureWarning().isPresent());
        assertTrue(BindAddress.parse("127.0.0.1:8080").exposureWarning().isEmpty());
        assertTrue(BindAddress.parse("localhost:8080").exposureWarning().isEmpty());
        assertTrue(BindAddress.parse("[::1]:8080").exposureWarning().isEmpty());
    }

    @Test
    void goBooleansAcceptTheStrconvSpellings() {
        GoBoolean b = new GoBoolean();
        for (String t : new String[] {"1", "t", "T", "TRUE", "true", "True"}) {
            assertEquals(true, b.convert(t), t);
        }
        for (String f : new String[] {"0", "f", "F", "FALSE", "false", "False"}) {
            assertEquals(false, b.convert(f), f);
        }
    }
}
