package shaper.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.config.ConfigException;

class UpstreamAuthTest {
    private static final String SECRET = "sk-provider-secret-42";
    private static final URI OPENAI = URI.create("https://api.openai.com");
    private static final URI ANTHROPIC = URI.create("https://api.anthropic.com");

    @TempDir
    Path dir;

    private static UpstreamAuth auth(String source, String mode, String header, URI upstream) {
        return UpstreamAuth.resolve(AuthConfig.parse(source, mode, header, null), upstream, Map.of("KEY", SECRET)::get);
    }

    /** A request carrying every kind of client credential, in mixed case, plus fields that must survive. */
    private static TestHeaders clientRequest() {
        return TestHeaders.of(
                "Content-Type", "application/json",
                "authorization", "Bearer client-openai-key",
                "PROXY-AUTHORIZATION", "Basic Y2xpZW50",
                "X-API-KEY", "client-anthropic-key",
                "Api-Key", "client-azure-key",
                "x-goog-api-key", "client-gemini-key",
                "anthropic-version", "2020-01-01",
                "Anthropic-Beta", "client-beta",
                "X-Amz-Date", "20250101T000000Z",
                "x-amz-security-token", "client-sts",
                "X-Goog-User-Project", "client-project",
                "Cookie", "session=client-cookie",
                "Accept", "text/event-stream");
    }

    private static final List<String> SURVIVORS = List.of(
            "Content-Type: application/json", "Cookie: session=client-cookie", "Accept: text/event-stream");

    private static List<String> with(String... injected) {
        return Stream.concat(SURVIVORS.stream(), Arrays.stream(injected)).toList();
    }

    @Test
    void bearerStripsEveryClientCredentialAndAttachesOne() {
        TestHeaders h = clientRequest();
        auth("env:KEY", "bearer", null, OPENAI).apply(h);
        assertEquals(with("Authorization: Bearer " + SECRET), h.lines());
    }

    @Test
    void xApiKeyAttachesKeyAndConfiguredAnthropicVersion() {
        TestHeaders h = clientRequest();
        auth("env:KEY", "x-api-key", null, OPENAI).apply(h);
        assertEquals(with("X-Api-Key: " + SECRET, "Anthropic-Version: 2023-06-01"), h.lines());

        TestHeaders custom = clientRequest();
        UpstreamAuth.resolve(AuthConfig.parse("env:KEY", "x-api-key", null, "2024-10-22"), ANTHROPIC,
                Map.of("KEY", SECRET)::get).apply(custom);
        assertEquals(with("X-Api-Key: " + SECRET, "Anthropic-Version: 2024-10-22"), custom.lines());
    }

    @Test
    void apiKeyAttachesAzureField() {
        TestHeaders h = clientRequest();
        auth("env:KEY", "api-key", null, OPENAI).apply(h);
        assertEquals(with("Api-Key: " + SECRET), h.lines());
    }

    @Test
    void customHeaderModeAttachesTheNamedField() {
        TestHeaders h = clientRequest();
        auth("env:KEY", "header:X-Portkey-Api-Key", null, OPENAI).apply(h);
        assertEquals(with("X-Portkey-Api-Key: " + SECRET), h.lines());

        TestHeaders viaFlag = clientRequest();
        auth("env:KEY", null, "X-Portkey-Api-Key", OPENAI).apply(viaFlag);
        assertEquals(with("X-Portkey-Api-Key: " + SECRET), viaFlag.lines());
    }

    @Test
    void customHeaderReplacesAClientFieldOfTheSameName() {
        TestHeaders h = TestHeaders.of("x-custom-key", "client-value", "Accept", "*/*");
        auth("env:KEY", "header:X-Custom-Key", null, OPENAI).apply(h);
        assertEquals(List.of("Accept: */*", "X-Custom-Key: " + SECRET), h.lines());
    }

    @Test
    void autoUsesXApiKeyForAnthropicAndBearerElsewhere() {
        TestHeaders anthropic = clientRequest();
        auth("env:KEY", null, null, ANTHROPIC).apply(anthropic);
        assertEquals(with("X-Api-Key: " + SECRET, "Anthropic-Version: 2023-06-01"), anthropic.lines());

        TestHeaders openai = clientRequest();
        auth("env:KEY", null, null, OPENAI).apply(openai);
        assertEquals(with("Authorization: Bearer " + SECRET), openai.lines());
    }

    @Test
    void noneSourceStripsAndInjectsNothing() {
        TestHeaders h = clientRequest();
        UpstreamAuth stripOnly = auth("none", null, null, ANTHROPIC);
        stripOnly.apply(h);
        assertEquals(SURVIVORS, h.lines());
        assertTrue(stripOnly.enabled());
        assertFalse(stripOnly.injects());
    }

    @Test
    void noneModeStripsWithoutReadingTheSecret() {
        TestHeaders h = clientRequest();
        UpstreamAuth stripOnly = UpstreamAuth.resolve(AuthConfig.parse("env:UNSET_VAR", "none", null, null), OPENAI,
                name -> {
                    throw new AssertionError("secret read for " + name);
                });
        stripOnly.apply(h);
        assertEquals(SURVIVORS, h.lines());
    }

    @Test
    void disabledLeavesEveryHeaderUntouched() {
        TestHeaders h = clientRequest();
        List<String> before = h.lines();
        UpstreamAuth.disabled().apply(h);
        auth(null, null, null, ANTHROPIC).apply(h);
        assertEquals(before, h.lines());
        assertFalse(UpstreamAuth.disabled().enabled());
    }

    @Test
    void requestWithoutClientCredentialsGetsExactlyOne() {
        TestHeaders h = TestHeaders.of("Accept", "*/*");
        auth("env:KEY", "bearer", null, OPENAI).apply(h);
        assertEquals(List.of("Accept: */*", "Authorization: Bearer " + SECRET), h.lines());
    }

    @Test
    void stripListMatchesAnyCaseAndWholeCloudFamilies() {
        for (String name : new String[] {"AUTHORIZATION", "x-Api-Key", "API-KEY", "Anthropic-beta", "x-amz-content-sha256",
                "X-AMZ-TARGET", "x-goog-request-params", "Proxy-Authorization"}) {
            assertTrue(CredentialHeaders.isStripped(name), name);
        }
        for (String name : new String[] {"Cookie", "x-amzn-requestid", "X-Api-Keys", "Authorization-Extra", "Content-Type"}) {
            assertFalse(CredentialHeaders.isStripped(name), name);
        }
    }

    @Test
    void secretFromFileIsInjected() throws IOException {
        Path file = Files.writeString(dir.resolve("key"), SECRET + "\n");
        TestHeaders h = TestHeaders.of();
        UpstreamAuth.resolve(AuthConfig.parse("file:" + file, "bearer", null, null), OPENAI, Map.<String, String>of()::get).apply(h);
        assertEquals(List.of("Authorization: Bearer " + SECRET), h.lines());
    }

    @Test
    void describeAndToStringNameOnlyTheReference() {
        UpstreamAuth bearer = auth("env:KEY", "bearer", null, OPENAI);
        assertEquals("upstream auth bearer from env:KEY", bearer.describe());
        assertEquals("upstream auth x-api-key (auto) from env:KEY with Anthropic-Version 2023-06-01",
                auth("env:KEY", null, null, ANTHROPIC).describe());
        assertEquals("upstream auth strip-only (-auth-source none)", auth("none", null, null, OPENAI).describe());
        assertEquals("upstream auth disabled (requests forwarded verbatim)", UpstreamAuth.disabled().describe());
        for (String mode : new String[] {"auto", "bearer", "x-api-key", "api-key", "header:X-K", "none"}) {
            UpstreamAuth a = auth("env:KEY", mode, null, ANTHROPIC);
            assertFalse(a.describe().contains(SECRET), a.describe());
            assertFalse(a.toString().contains(SECRET), a.toString());
            assertFalse(("" + a).contains("provider-secret"), mode);
        }
    }

    @Test
    void unresolvableSecretFailsStartupNamingTheReference() {
        ConfigException e = assertThrows(ConfigException.class, () -> UpstreamAuth.resolve(
                AuthConfig.parse("env:SHAPER_PROVIDER_ACME_API_KEY", null, null, null), OPENAI, Map.<String, String>of()::get));
        assertEquals("-auth-source env:SHAPER_PROVIDER_ACME_API_KEY: environment variable SHAPER_PROVIDER_ACME_API_KEY is not set",
                e.getMessage());
        ConfigException blank = assertThrows(ConfigException.class, () -> UpstreamAuth.resolve(
                AuthConfig.parse("env:KEY", null, null, null), OPENAI, Map.of("KEY", "   ")::get));
        assertTrue(blank.getMessage().contains("env:KEY"), blank.getMessage());
    }

    @Test
    void modeWithoutSourceIsRefused() {
        assertEquals("-auth-mode needs -auth-source (env:VAR, file:PATH or none)",
                assertThrows(ConfigException.class, () -> AuthConfig.parse(null, "bearer", null, null)).getMessage());
        assertEquals("-auth-header needs -auth-source (env:VAR, file:PATH or none)",
                assertThrows(ConfigException.class, () -> AuthConfig.parse(null, null, "X-Key", null)).getMessage());
        assertFalse(AuthConfig.parse(null, null, null, null).enabled());
    }

    @Test
    void badAnthropicVersionIsRefused() {
        ConfigException e = assertThrows(ConfigException.class, () -> AuthConfig.parse("env:KEY", null, null, "2023-06-01\r\nX: y"));
        assertTrue(e.getMessage().startsWith("-anthropic-version: "), e.getMessage());
    }

    @Test
    void startupNoteCountsProvidersWithAuthDisabled() {
        UpstreamAuth on = auth("env:KEY", null, null, OPENAI);
        UpstreamAuth stripOnly = auth("none", null, null, OPENAI);
        assertEquals(Optional.of("1 of 3 providers configured without upstream auth"),
                UpstreamAuth.startupNote(List.of(on, UpstreamAuth.disabled(), stripOnly)));
        assertEquals(Optional.of("2 of 2 providers configured without upstream auth"),
                UpstreamAuth.startupNote(List.of(UpstreamAuth.disabled(), UpstreamAuth.disabled())));
        assertEquals(Optional.empty(), UpstreamAuth.startupNote(List.of(on, stripOnly)));
        assertEquals(Optional.empty(), UpstreamAuth.startupNote(List.of(UpstreamAuth.disabled())));
    }
}
