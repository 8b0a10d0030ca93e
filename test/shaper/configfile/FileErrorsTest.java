package shaper.configfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Mistakes only a file can make: each names file:line:column and the flag, with the exit code of the flag's kind of mistake. */
class FileErrorsTest {
    @TempDir
    Path dir;

    private ConfigFiles.Result load(String yaml, String... argv) {
        return ConfigFiles.runWith(ConfigFiles.write(dir, "shaper.yaml", yaml), argv);
    }

    private void assertNames(ConfigFiles.Result r, int code, String lineColumn, String... fragments) {
        assertEquals(code, r.code(), r.err());
        assertTrue(r.err().contains(dir.resolve("shaper.yaml") + ":" + lineColumn + ": "), r.err());
        for (String f : fragments) {
            assertTrue(r.err().contains(f), "missing \"" + f + "\" in: " + r.err());
        }
    }

    @Test
    void unknownKeyIsAUsageErrorNamingIt() {
        assertNames(load("upstream: http://127.0.0.1:9\nconcurency: 4\n"), 2, "2:1", "unknown key \"concurency\"", "-h");
    }

    @Test
    void unknownKeyInAProviderEntry() {
        assertNames(load("providers:\n  - name: a\n    upstream: http://127.0.0.1:9\n    prefx: /a\n"), 2, "4:5", "\"prefx\"");
    }

    @Test
    void wrongYamlTypeNamesTheFlagAndTheExpectedType() {
        assertNames(load("upstream: http://127.0.0.1:9\nconcurrency: [1, 2]\n"), 2, "2:14", "concurrency (-concurrency)", "expected an integer", "a list");
        assertNames(load("upstream: http://127.0.0.1:9\nlimit-all: 1.5\n"), 2, "2:12", "-limit-all", "boolean");
        assertNames(load("upstream: http://127.0.0.1:9\nqueue-timeout: true\n"), 2, "2:16", "-queue-timeout", "Go duration");
        assertNames(load("upstream: http://127.0.0.1:9\nprefix:\n"), 2, "2:8", "-prefix", "no value");
    }

    @Test
    void serverKeyInAProviderEntryIsAUsageError() {
        assertNames(load("providers:\n  - name: a\n    upstream: http://127.0.0.1:9\n    bind: 127.0.0.1:1\n"), 2, "4:5", "-bind", "server-scope");
    }

    @Test
    void providerKeyAtTheTopBesideProvidersIsAUsageError() {
        assertNames(load("concurrency: 2\nproviders:\n  - name: a\n    upstream: http://127.0.0.1:9\n"), 2, "1:1", "-concurrency", "provider-scope");
    }

    @Test
    void commandLineOnlyFlagsAreNoFileKeys() {
        assertNames(load("upstream: http://127.0.0.1:9\nprint-config: true\n"), 2, "2:1", "-print-config", "command line only");
    }

    @Test
    void keyWrittenTwiceAndBrokenYamlAreUsageErrors() {
        assertNames(load("upstream: http://127.0.0.1:9\nconcurrency: 2\nconcurrency: 3\n"), 2, "3:1", "written twice");
        ConfigFiles.Result broken = load("upstream: http://127.0.0.1:9\n  concurrency: [2\n");
        assertEquals(2, broken.code(), broken.err());
        assertTrue(broken.err().contains(dir.resolve("shaper.yaml") + ":"), broken.err());
    }

    @Test
    void aSingleProviderFileWithCommandLineSectionsIsAUsageError() {
        assertNames(load("upstream: http://127.0.0.1:9\n", "--provider=b", "-upstream", "http://127.0.0.1:8", "-prefix", "/b"), 2, "1:1",
                "providers:");
    }

    @Test
    void aMissingFileIsASemanticError() {
        ConfigFiles.Result r = ConfigFiles.run("-config", dir.resolve("absent.yaml").toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("-config") && r.err().contains("absent.yaml"), r.err());
    }

    @Test
    void aLiteralSecretNeverReachesTheMessage() {
        ConfigFiles.Result r = load("upstream: http://127.0.0.1:9\nclient-key: sk-live-secret-value\n");
        assertNames(r, 1, "2:1", "-client-key");
        assertFalse(r.err().contains("sk-live-secret-value"), r.err());
    }

    @Test
    void anErrorAboutACommandLineFlagHasNoFilePosition() {
        ConfigFiles.Result r = load("upstream: http://127.0.0.1:9\nconcurrency: 2\n", "-concurrency", "many");
        assertEquals(2, r.code());
        assertFalse(r.err().contains("shaper.yaml:"), r.err());
    }
}
