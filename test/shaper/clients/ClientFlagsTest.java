package shaper.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.configfile.ConfigLoader;
import shaper.cli.Invocation;
import shaper.limit.QueueClient;
import shaper.main.ShaperMain;
import shaper.settings.ProviderConfig;

/**
 * The client flags: defaults that change nothing, per-client overrides on the command line and in
 * the config file, and bad values (a credential header as the identity, a malformed override) as
 * semantic errors naming the flag.
 */
class ClientFlagsTest {
    private static final String UP = "http://127.0.0.1:9";

    @TempDir
    Path dir;

    private static ProviderConfig provider(List<String> flags) {
        return assertInstanceOf(Invocation.Run.class, ConfigLoader.parse(flags)).config().providers().get(0);
    }

    private static void fails(String expected, String... flags) {
        List<String> argv = new ArrayList<>(List.of("-upstream", UP));
        argv.addAll(List.of(flags));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ShaperMain.run(argv.toArray(String[]::new), new PrintStream(new ByteArrayOutputStream(), true),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, code, text);
        assertTrue(text.contains(expected), "expected \"" + expected + "\" in: " + text);
    }

    @Test
    void byDefaultTheKeyNamesTheClientAndNobodyIsCapped() {
        ClientConfig c = provider(List.of("-upstream", UP)).clients();
        assertEquals(QueueClient.ANONYMOUS, c.client(h -> "someone", Optional.empty()), "no key: anonymous, whatever the headers");
        assertEquals(new QueueClient("env:ANN_KEY", 1, 0, 0), c.client(h -> null, Optional.of("env:ANN_KEY")));
    }

    @Test
    void overridesComeFromTheCommandLineAndTheConfigFile() throws Exception {
        ClientConfig flags = provider(List.of("-upstream", UP, "-client-id", "header:x-team,session", "-client-concurrency", "4",
                "-client-concurrency", "dana=6", "-client-weight", "dana=3", "-client-queue-depth", "40")).clients();
        assertEquals(new QueueClient("dana", 3, 6, 40), flags.client(h -> h.equals("x-team") ? "dana" : null, Optional.empty()));
        assertEquals(new QueueClient("s-1", 1, 4, 40), flags.client(h -> h.equals("session-id") ? "s-1" : null, Optional.empty()));
        Path file = Files.writeString(dir.resolve("shaper.yaml"), String.join("\n", "upstream: " + UP, "client-id: header:x-team",
                "client-concurrency: [\"4\", \"dana=6\"]", "client-weight: [\"dana=3\"]", "client-queue-depth: [\"40\"]", ""));
        ClientConfig fromFile = provider(List.of("-config", file.toString())).clients();
        assertEquals(new QueueClient("dana", 3, 6, 40), fromFile.client(h -> h.equals("x-team") ? "dana" : null, Optional.empty()));
        assertEquals(new QueueClient("ben", 1, 4, 40), fromFile.client(h -> h.equals("x-team") ? "ben" : null, Optional.empty()));
    }

    @Test
    void anUnusableHeaderValueFallsToTheNextSource() {
        ClientConfig c = provider(List.of("-upstream", UP, "-client-id", "header:x-team,session")).clients();
        assertEquals("s-1", c.client(h -> h.equals("x-team") ? "x".repeat(129) : h.equals("x-claude-code-session-id") ? "s-1" : null,
                Optional.empty()).name());
        assertEquals("anonymous", c.client(h -> h.equals("x-team") ? "bad value" : null, Optional.empty()).name());
    }

    @Test
    void badValuesAreSemanticErrorsNamingTheFlag() {
        fails("carries credentials", "-client-id", "header:Authorization");
        fails("carries credentials", "-client-id", "key,header:x-api-key");
        fails("is not a source", "-client-id", "cookie-jar");
        fails("-client-weight", "-client-weight", "alice=0");
        fails("-client-concurrency", "-client-concurrency", "al ice=2");
        fails("given twice", "-client-queue-depth", "a=1", "-client-queue-depth", "a=2");
    }
}
