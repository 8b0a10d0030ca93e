package shaper.launcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.testing.RunningShaper;

/** Where the overlay comes from, what the copy holds, and which input stops the launch. */
class SettingsOverlayTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static RunningShaper shaper;

    @TempDir
    Path dir;

    @BeforeAll
    static void startShaper() {
        shaper = RunningShaper.start("-upstream", "http://127.0.0.1:1");
    }

    @AfterAll
    static void stopShaper() {
        shaper.close();
    }

    @Test
    void settingsFileIsCopiedWithTheShaperAsBaseUrlAndTheOriginalIsUntouched() throws Exception {
        Path original = dir.resolve("my-settings.json");
        Files.writeString(original, "{\"model\":\"opus\",\"env\":{\"FOO\":\"bar\"}}\n");
        Files.setLastModifiedTime(original, FileTime.fromMillis(1_000_000_000L));
        byte[] before = Files.readAllBytes(original);
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        InProcessLaunch.Result r = new InProcessLaunch(dir, claude, shaper.port()).run("--settings", original.toString());
        assertEquals(0, r.exitCode(), r.stderr());
        JsonNode copy = JSON.readTree(claude.settings());
        assertEquals("opus", copy.path("model").asText());
        assertEquals("bar", copy.path("env").path("FOO").asText());
        assertEquals(baseUrl(), copy.path("env").path("ANTHROPIC_BASE_URL").asText());
        assertArrayEquals(before, Files.readAllBytes(original), "original content unchanged");
        assertEquals(FileTime.fromMillis(1_000_000_000L), Files.getLastModifiedTime(original), "original never rewritten");
        assertFalse(claude.settingsPath().equals(original));
    }

    @Test
    void inlineJsonIsCopiedInBothSpellings() throws Exception {
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        new InProcessLaunch(dir, claude, shaper.port()).run("--settings={\"model\":\"inline\"}");
        assertEquals("inline", JSON.readTree(claude.settings()).path("model").asText());
        assertEquals(baseUrl(), JSON.readTree(claude.settings()).path("env").path("ANTHROPIC_BASE_URL").asText());

        FakeClaude second = FakeClaude.exiting(dir.resolve("2"), 0);
        new InProcessLaunch(dir.resolve("2"), second, shaper.port()).run("--settings", " {\"model\":\"spaced\"}");
        assertEquals("spaced", JSON.readTree(second.settings()).path("model").asText());
    }

    @Test
    void homeRetryProxyJsonIsTheOverlayWithoutSettingsFlag() throws Exception {
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        InProcessLaunch launch = new InProcessLaunch(dir, claude, shaper.port())
                .with("SHAPER_SETTINGS", "{\"model\":\"from-variable\"}");
        Path overlay = Files.createDirectories(launch.home.resolve(".claude")).resolve("retry-proxy.json");
        Files.writeString(overlay, "{\"model\":\"from-home\"}");
        assertEquals(0, launch.run().exitCode());
        assertEquals("from-home", JSON.readTree(claude.settings()).path("model").asText());
        assertEquals("{\"model\":\"from-home\"}", Files.readString(overlay));
    }

    @Test
    void settingsFlagWinsOverHomeOverlay() throws Exception {
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        InProcessLaunch launch = new InProcessLaunch(dir, claude, shaper.port());
        Files.writeString(Files.createDirectories(launch.home.resolve(".claude")).resolve("retry-proxy.json"), "{\"model\":\"home\"}");
        launch.run("--settings", "{\"model\":\"flag\"}");
        assertEquals("flag", JSON.readTree(claude.settings()).path("model").asText());
    }

    @Test
    void shaperSettingsVariableIsUsedAsFileOrJsonWhenNothingElseIs() throws Exception {
        Path file = dir.resolve("variable.json");
        Files.writeString(file, "{\"model\":\"variable-file\"}");
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        new InProcessLaunch(dir, claude, shaper.port()).with("SHAPER_SETTINGS", file.toString()).run();
        assertEquals("variable-file", JSON.readTree(claude.settings()).path("model").asText());

        FakeClaude second = FakeClaude.exiting(dir.resolve("2"), 0);
        new InProcessLaunch(dir.resolve("2"), second, shaper.port()).with("SHAPER_SETTINGS", "{\"model\":\"variable-json\"}").run();
        assertEquals("variable-json", JSON.readTree(second.settings()).path("model").asText());
    }

    @Test
    void withoutAnySourceTheOverlayOnlySetsTheBaseUrl() throws Exception {
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        new InProcessLaunch(dir, claude, shaper.port()).run();
        assertEquals(JSON.readTree("{\"env\":{\"ANTHROPIC_BASE_URL\":\"" + baseUrl() + "\"}}"), JSON.readTree(claude.settings()));
    }

    @Test
    void aBaseUrlInTheSettingsIsReplacedAndTheUserIsTold() throws Exception {
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        InProcessLaunch.Result r = new InProcessLaunch(dir, claude, shaper.port())
                .run("--settings", "{\"env\":{\"ANTHROPIC_BASE_URL\":\"https://elsewhere.example\"}}");
        assertEquals(baseUrl(), JSON.readTree(claude.settings()).path("env").path("ANTHROPIC_BASE_URL").asText());
        assertTrue(r.stderr().contains("SHAPER_UPSTREAM"), r.stderr());
    }

    @Test
    void invalidJsonStopsTheLaunchWithoutQuotingTheContent() throws IOException {
        Path file = dir.resolve("broken.json");
        Files.writeString(file, "{\"env\":{\"ANTHROPIC_API_KEY\":\"sk-secret-123\"");
        assertRefused(file.toString(), "invalid JSON");
        assertRefused("{\"a\":1} trailing", "invalid JSON");
        InProcessLaunch.Result r = refused(file.toString());
        assertFalse(r.stderr().contains("sk-secret-123"), r.stderr());
    }

    @Test
    void anEnvBlockThatIsNotAnObjectStopsTheLaunch() {
        assertRefused("{\"env\":[\"A=1\"]}", "\"env\" must be an object of strings, got an array");
        assertRefused("{\"env\":\"A=1\"}", "got a string");
    }

    @Test
    void anEnvValueThatIsNotAStringStopsTheLaunch() {
        assertRefused("{\"env\":{\"PORT\":8080}}", "env.PORT must be a string, got a number");
        assertRefused("{\"env\":{\"X\":null}}", "env.X must be a string, got null");
        assertRefused("{\"env\":{\"X\":{\"y\":\"z\"}}}", "env.X must be a string, got an object");
    }

    @Test
    void settingsThatAreNotAnObjectOrAreMissingStopTheLaunch() throws IOException {
        Path array = dir.resolve("array.json");
        Files.writeString(array, "[1, 2]");
        assertRefused(array.toString(), "expected a JSON object, got an array");
        Path empty = dir.resolve("empty.json");
        Files.writeString(empty, "  \n");
        assertRefused(empty.toString(), "empty");
        assertRefused(dir.resolve("missing.json").toString(), "no such file");
        assertRefused(dir.toString(), "not a regular file");
    }

    @Test
    void anInvalidHomeOverlayStopsTheLaunchToo() throws IOException {
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        InProcessLaunch launch = new InProcessLaunch(dir, claude, shaper.port());
        Files.writeString(Files.createDirectories(launch.home.resolve(".claude")).resolve("retry-proxy.json"), "{nope");
        InProcessLaunch.Result r = launch.run();
        assertEquals(1, r.exitCode());
        assertTrue(r.stderr().contains("~/.claude/retry-proxy.json: invalid JSON"), r.stderr());
        assertFalse(claude.ran());
    }

    @Test
    void settingsFlagWithoutValueIsAUsageError() {
        FakeClaude claude = FakeClaude.exiting(dir, 0);
        InProcessLaunch.Result r = new InProcessLaunch(dir, claude, shaper.port()).run("-p", "hi", "--settings");
        assertEquals(2, r.exitCode());
        assertTrue(r.stderr().contains("--settings needs a value"), r.stderr());
        assertFalse(claude.ran());
    }

    private void assertRefused(String settings, String expected) {
        InProcessLaunch.Result r = refused(settings);
        assertTrue(r.stderr().contains(expected), "expected \"" + expected + "\" in: " + r.stderr());
    }

    private InProcessLaunch.Result refused(String settings) {
        Path base = dir.resolve("refused-" + System.nanoTime());
        FakeClaude claude = FakeClaude.exiting(base, 0);
        InProcessLaunch launch = new InProcessLaunch(base, claude, shaper.port());
        InProcessLaunch.Result r = launch.run("--settings", settings);
        assertEquals(1, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("claude-launcher: --settings"), r.stderr());
        assertFalse(claude.ran(), "Claude Code must not start");
        assertEquals(List.of(), launch.leftoverCopies());
        return r;
    }

    private static String baseUrl() {
        return "http://127.0.0.1:" + shaper.port();
    }
}
