package shaper.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.auth.AuthMode;
import shaper.auth.AuthSource;
import shaper.config.BindAddress;
import shaper.main.ShaperMain;
import shaper.settings.ProviderConfig;
import shaper.settings.ShaperConfig;

/** --provider sections: scopes, names, prefixes, section errors and the exit codes. */
class ProviderSectionsTest {
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
    void specExampleParsesIntoTwoProvidersWithTheirOwnSettings() {
        ShaperConfig c = config("-bind", "127.0.0.1:9000",
                "--provider=anthropic", "-upstream", "https://api.anthropic.com", "-prefix", "/anthropic", "-concurrency", "4",
                "--provider=openai", "-upstream", "https://api.openai.com", "-prefix", "/openai", "-concurrency", "8");
        assertEquals(new BindAddress("127.0.0.1", 9000), c.server().bind());
        ProviderConfig a = c.providers().get(0);
        ProviderConfig o = c.providers().get(1);
        assertEquals(List.of("anthropic", "/anthropic", 4), List.of(a.name(), a.prefix(), a.admission().concurrency()));
        assertEquals(List.of("openai", "/openai", 8), List.of(o.name(), o.prefix(), o.admission().concurrency()));
    }

    @Test
    void namesComeFromNameFlagThenMarkerThenHost() {
        ShaperConfig c = config("--provider", "-upstream", "https://api.anthropic.com", "-prefix", "/a",
                "--provider=gw", "-upstream", "https://api-gateway.example.com", "-prefix", "/b",
                "--provider=ignored", "-name", "explicit", "-upstream", "http://127.0.0.1:1", "-prefix", "/c",
                "--provider", "-upstream", "https://api-inference.example.com", "-prefix", "/d");
        assertEquals(List.of("anthropic", "gw", "explicit", "inference"), c.providers().stream().map(ProviderConfig::name).toList());
    }

    @Test
    void singleUpstreamFormIsUnchangedAndNamedDefault() {
        ShaperConfig c = config("-upstream", "https://api.anthropic.com", "-concurrency", "2", "-bind", "127.0.0.1:1");
        assertEquals(1, c.providers().size());
        assertEquals("default", c.providers().getFirst().name());
        assertEquals("", c.providers().getFirst().prefix());
        assertFalse(c.providers().getFirst().auth().enabled());
    }

    @Test
    void authFlagsAreProviderScope() {
        ShaperConfig c = config("--provider=a", "-upstream", "http://127.0.0.1:1", "-prefix", "/a",
                "-auth-source", "env:KEY_A", "-auth-mode", "x-api-key", "-anthropic-version", "2024-01-01",
                "--provider=b", "-upstream", "http://127.0.0.1:2", "-prefix", "/b", "-auth-source", "file:/run/key", "-auth-header", "X-Key");
        assertEquals(new AuthSource.Env("KEY_A"), c.providers().get(0).auth().source());
        assertEquals(AuthMode.Kind.X_API_KEY, c.providers().get(0).auth().mode().kind());
        assertEquals("2024-01-01", c.providers().get(0).auth().anthropicVersion());
        assertEquals("X-Key", c.providers().get(1).auth().mode().headerName());
    }

    @Test
    void clientKeyIsServerScopeAndRepeatable() {
        ShaperConfig c = config("-client-key", "env:K1", "-client-key", "file:/k2", "--provider", "-upstream", "http://a.example");
        assertEquals(List.of("env:K1", "file:/k2"), c.server().clientKeys());
    }

    @Test
    void serverFlagInsideASectionIsAUsageErrorNamingFlagAndSection() {
        Result r = run("--provider=a", "-upstream", "http://127.0.0.1:1", "-bind", "127.0.0.1:1");
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("shaper: provider \"a\": -bind is a server-scope flag"), r.err());
        assertTrue(r.err().contains("-h"), r.err());
        Result v = run("--provider", "-upstream", "http://127.0.0.1:1", "--provider", "-version");
        assertEquals(2, v.code());
        assertTrue(v.err().contains("provider section 2: -version is a server-scope flag"), v.err());
        assertEquals(2, run("--provider", "-upstream", "http://a", "-client-key=env:K").code());
    }

    @Test
    void providerFlagBeforeTheFirstMarkerIsAUsageError() {
        Result r = run("-concurrency", "4", "--provider=a", "-upstream", "http://127.0.0.1:1");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("-concurrency is a provider-scope flag"), r.err());
    }

    @Test
    void unknownFlagInASectionIsAUsageErrorNamingTheSection() {
        Result r = run("--provider=a", "-upstream", "http://127.0.0.1:1", "-prefix", "/a",
                "--provider", "-upstream", "http://127.0.0.1:2", "-prefix", "/b", "-no-such-flag");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("provider section 2: ") && r.err().contains("-no-such-flag"), r.err());
        assertTrue(r.err().contains("Run './jbang Shaper.java -h'"), r.err());
    }

    @Test
    void accountIsReserved() {
        for (String[] argv : new String[][] {{"--account=x", "-upstream", "http://a"}, {"--provider", "-upstream", "http://a", "--account"}}) {
            Result r = run(argv);
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains("--account is reserved"), r.err());
        }
    }

    @Test
    void emptyMarkerNameIsMalformed() {
        Result r = run("--provider=", "-upstream", "http://a");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("malformed section marker"), r.err());
    }

    @Test
    void helpInsideASectionPrintsTheProviderScope() {
        Result r = run("-bind", "127.0.0.1:1", "--provider=acme", "-h");
        assertEquals(0, r.code());
        assertTrue(r.out().contains("-upstream") && r.out().contains("-prefix") && r.out().contains("-auth-source"), r.out());
        assertFalse(r.out().contains("-bind"), "server flags are not part of a section's reference: " + r.out());
        Result top = run("-h", "--provider=acme", "-upstream", "http://a");
        assertTrue(top.out().contains("-bind") && top.out().contains("-upstream") && top.out().contains("Server-scope flags"), top.out());
    }

    @Test
    void helpConsumedAsAFlagValueIsNotHelp() {
        ShaperConfig c = config("--provider", "-upstream", "http://127.0.0.1:1", "-name", "-h");
        assertEquals("-h", c.providers().getFirst().name());
    }

    @Test
    void markerConsumedAsAFlagValueIsNotAMarker() {
        ShaperConfig c = config("--provider", "-upstream", "http://127.0.0.1:1", "-name", "--provider");
        assertEquals(1, c.providers().size());
        assertEquals("--provider", c.providers().getFirst().name());
    }

    @Test
    void semanticErrorsNameTheirSectionAndExitOne() {
        Result r = run("--provider=a", "-upstream", "http://127.0.0.1:1", "-prefix", "/a", "--provider", "-prefix", "/b");
        assertEquals(1, r.code());
        assertEquals("shaper: provider section 2: -upstream is required\n", r.err());
        Result bad = run("--provider", "-name", "x", "-upstream", "ftp://x");
        assertEquals("shaper: provider \"x\": -upstream scheme must be http or https, got \"ftp\"\n", bad.err());
        assertEquals("shaper: provider section 1: -prefix must start with /, got \"a\"\n",
                run("--provider", "-upstream", "http://x", "-prefix", "a").err());
    }

    @Test
    void severalProvidersEachNeedAPrefix() {
        Result r = run("--provider=a", "-upstream", "http://127.0.0.1:1", "-prefix", "/a", "--provider", "-upstream", "http://127.0.0.1:2");
        assertEquals(1, r.code());
        assertEquals("shaper: provider section 2: requires -prefix when multiple providers are configured\n", r.err());
    }

    @Test
    void overlappingPrefixesAreRejected() {
        Result r = run("--provider=a", "-upstream", "http://127.0.0.1:1", "-prefix", "/anthropic",
                "--provider=b", "-upstream", "http://127.0.0.1:2", "-prefix", "/anthropic/v1/");
        assertEquals(1, r.code());
        assertEquals("shaper: provider prefixes overlap: \"/anthropic\" (a) and \"/anthropic/v1\" (b)\n", r.err());
        Result root = run("--provider=a", "-upstream", "http://127.0.0.1:1", "-prefix", "/",
                "--provider=b", "-upstream", "http://127.0.0.1:2", "-prefix", "/b");
        assertEquals("shaper: provider prefixes overlap: \"/\" (a) and \"/b\" (b)\n", root.err(), "only one bare mount, and only alone");
        assertEquals(0, config("--provider=a", "-upstream", "http://127.0.0.1:1", "-prefix", "/anthropic",
                "--provider=b", "-upstream", "http://127.0.0.1:2", "-prefix", "/anthropic2").providers().size() - 2);
    }

    @Test
    void duplicateNamesAreRejected() {
        Result r = run("--provider", "-upstream", "http://127.0.0.1:1", "-prefix", "/a",
                "--provider", "-upstream", "http://127.0.0.1:2", "-prefix", "/b",
                "--provider", "-upstream", "http://127.0.0.1:3", "-prefix", "/c");
        assertEquals(1, r.code());
        assertEquals("shaper: duplicate provider name \"127.0.0.1\" (providers 1 and 2)\n", r.err());
    }

    @Test
    void badNamesAreSemanticErrors() {
        assertEquals(1, run("--provider=a b", "-upstream", "http://a").code());
        assertEquals(1, run("--provider", "-upstream", "http://a", "-name", "x=y").code());
        assertTrue(run("-upstream", "http://a", "-name", "").err().contains("-name: invalid provider name"));
    }

    @Test
    void literalSecretAsAuthSourceIsRefusedWithoutEchoingIt() {
        Result r = run("--provider", "-upstream", "http://a", "-auth-source", "sk-ant-literal-secret");
        assertEquals(1, r.code());
        assertTrue(r.err().contains("-auth-source") && !r.err().contains("sk-ant-literal-secret"), r.err());
    }
}
