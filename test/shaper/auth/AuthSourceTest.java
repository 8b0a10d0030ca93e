package shaper.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.config.ConfigException;

class AuthSourceTest {
    private static final String SECRET = "sk-test-0123456789abcdef";

    @TempDir
    Path dir;

    private static Function<String, String> env(Map<String, String> vars) {
        return vars::get;
    }

    @Test
    void parsesEveryForm() {
        assertEquals(new AuthSource.Env("SHAPER_KEY"), AuthSource.parse("env:SHAPER_KEY"));
        assertEquals(new AuthSource.SecretFile(Path.of("/run/secrets/k")), AuthSource.parse("file:/run/secrets/k"));
        assertInstanceOf(AuthSource.None.class, AuthSource.parse("none"));
        assertInstanceOf(AuthSource.Unset.class, AuthSource.parse(null));
        assertEquals("env:SHAPER_KEY", AuthSource.parse("env:SHAPER_KEY").reference());
        assertEquals("file:/run/secrets/k", AuthSource.parse("file:/run/secrets/k").reference());
    }

    @Test
    void malformedSourcesAreRefusedWithoutEchoingTheValue() {
        for (String bad : new String[] {"", "env:", "file:", "NONE", "sk-ant-literal-secret", "env:sk-ant-literal-secret"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> AuthSource.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("-auth-source: "), e.getMessage());
            assertFalse(e.getMessage().contains("literal-secret"), e.getMessage());
        }
    }

    @Test
    void envSecretIsReadAndTrimmed() {
        String secret = Secrets.resolve("-auth-source", AuthSource.parse("env:KEY"), env(Map.of("KEY", "  " + SECRET + "\n")));
        assertEquals(SECRET, secret);
    }

    @Test
    void unsetEnvVariableFailsNamingTheVariable() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> Secrets.resolve("-auth-source", AuthSource.parse("env:MISSING_KEY"), env(Map.of())));
        assertEquals("-auth-source env:MISSING_KEY: environment variable MISSING_KEY is not set", e.getMessage());
    }

    @Test
    void blankEnvVariableFailsNamingTheVariableNotTheValue() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> Secrets.resolve("-auth-source", AuthSource.parse("env:BLANK_KEY"), env(Map.of("BLANK_KEY", " \t "))));
        assertTrue(e.getMessage().contains("env:BLANK_KEY"), e.getMessage());
        assertTrue(e.getMessage().contains("blank"), e.getMessage());
    }

    @Test
    void multiLineSecretIsRefusedWithoutEchoingIt() {
        ConfigException e = assertThrows(ConfigException.class, () -> Secrets.resolve("-auth-source",
                AuthSource.parse("env:KEY"), env(Map.of("KEY", SECRET + "\r\nX-Injected: yes"))));
        assertTrue(e.getMessage().contains("env:KEY"), e.getMessage());
        assertFalse(e.getMessage().contains(SECRET), e.getMessage());
        assertFalse(e.getMessage().contains("Injected"), e.getMessage());
    }

    @Test
    void fileSecretIsReadOnceAndTrimmed() throws IOException {
        Path file = Files.writeString(dir.resolve("key"), SECRET + "\n");
        assertEquals(SECRET, Secrets.resolve("-auth-source", AuthSource.parse("file:" + file), env(Map.of())));
    }

    @Test
    void missingFileFailsNamingThePath() {
        Path file = dir.resolve("absent");
        ConfigException e = assertThrows(ConfigException.class,
                () -> Secrets.resolve("-auth-source", AuthSource.parse("file:" + file), env(Map.of())));
        assertTrue(e.getMessage().startsWith("-auth-source file:" + file + ": cannot read " + file), e.getMessage());
    }

    @Test
    void directoryIsUnreadable() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> Secrets.resolve("-auth-source", AuthSource.parse("file:" + dir), env(Map.of())));
        assertTrue(e.getMessage().contains("cannot read " + dir), e.getMessage());
    }

    @Test
    void blankFileFailsNamingThePath() throws IOException {
        Path file = Files.writeString(dir.resolve("blank"), "\n  \n");
        ConfigException e = assertThrows(ConfigException.class,
                () -> Secrets.resolve("-auth-source", AuthSource.parse("file:" + file), env(Map.of())));
        assertEquals("-auth-source file:" + file + ": file is blank", e.getMessage());
    }

    @Test
    void fileAtTheBoundIsReadAndOneByteMoreIsRefused() throws IOException {
        String atBound = "k".repeat(AuthSource.MAX_FILE_BYTES);
        Path ok = Files.writeString(dir.resolve("ok"), atBound);
        assertEquals(atBound, Secrets.resolve("-auth-source", AuthSource.parse("file:" + ok), env(Map.of())));

        Path big = Files.write(dir.resolve("big"), ("k".repeat(AuthSource.MAX_FILE_BYTES) + "\n").getBytes(StandardCharsets.US_ASCII));
        ConfigException e = assertThrows(ConfigException.class,
                () -> Secrets.resolve("-auth-source", AuthSource.parse("file:" + big), env(Map.of())));
        assertEquals("-auth-source file:" + big + ": file is larger than 65536 bytes", e.getMessage());
    }

    @Test
    void noneAndUnsetCarryNoSecret() {
        assertFalse(AuthSource.parse("none").hasSecret());
        assertFalse(AuthSource.parse(null).hasSecret());
        assertTrue(AuthSource.parse("env:X").hasSecret());
        assertTrue(AuthSource.parse("file:/x").hasSecret());
    }
}
