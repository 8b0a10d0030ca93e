package shaper.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;

import org.junit.jupiter.api.Test;

import shaper.auth.AuthMode.Kind;
import shaper.config.ConfigException;

class AuthModeTest {
    @Test
    void parsesEveryKeyword() {
        assertEquals(AuthMode.AUTO, AuthMode.parse(null, null));
        assertEquals(new AuthMode(Kind.AUTO, null), AuthMode.parse("auto", null));
        assertEquals(new AuthMode(Kind.BEARER, null), AuthMode.parse("bearer", null));
        assertEquals(new AuthMode(Kind.X_API_KEY, null), AuthMode.parse("x-api-key", null));
        assertEquals(new AuthMode(Kind.API_KEY, null), AuthMode.parse("api-key", null));
        assertEquals(new AuthMode(Kind.NONE, null), AuthMode.parse("none", null));
        assertEquals(new AuthMode(Kind.HEADER, "X-Custom-Key"), AuthMode.parse("header:X-Custom-Key", null));
    }

    @Test
    void authHeaderFlagSelectsHeaderMode() {
        assertEquals(new AuthMode(Kind.HEADER, "X-Custom-Key"), AuthMode.parse(null, "X-Custom-Key"));
        assertEquals(new AuthMode(Kind.HEADER, "X-Custom-Key"), AuthMode.parse("header", "X-Custom-Key"));
        assertEquals(new AuthMode(Kind.HEADER, "X-Custom-Key"), AuthMode.parse("auto", "X-Custom-Key"));
        assertEquals(new AuthMode(Kind.HEADER, "X-Custom-Key"), AuthMode.parse("header:X-Custom-Key", "x-custom-key"));
    }

    @Test
    void conflictingOrIncompleteFlagsAreRefused() {
        assertEquals("-auth-header cannot be combined with -auth-mode bearer",
                assertThrows(ConfigException.class, () -> AuthMode.parse("bearer", "X-Key")).getMessage());
        assertEquals("-auth-header Y-Key conflicts with -auth-mode header:X-Key",
                assertThrows(ConfigException.class, () -> AuthMode.parse("header:X-Key", "Y-Key")).getMessage());
        assertTrue(assertThrows(ConfigException.class, () -> AuthMode.parse("header", null)).getMessage()
                .contains("header:NAME or -auth-header NAME"));
    }

    @Test
    void unknownModeListsTheAccepted() {
        ConfigException e = assertThrows(ConfigException.class, () -> AuthMode.parse("basic", null));
        assertEquals("-auth-mode: \"basic\" (expected: auto, bearer, x-api-key, api-key, header:NAME or none)", e.getMessage());
    }

    @Test
    void customHeaderMustBeAToken() {
        for (String bad : new String[] {"", "X Key", "X-Key:", "X\"Key", "Ключ", "X-Key\r\n"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> AuthMode.parse(null, bad), bad);
            assertTrue(e.getMessage().contains("RFC 7230 token"), e.getMessage());
        }
        assertThrows(ConfigException.class, () -> AuthMode.parse("header:", null));
        assertEquals("x!#$%&'*+.^_`|~9", AuthMode.parse(null, "x!#$%&'*+.^_`|~9").headerName());
    }

    @Test
    void reservedCustomHeaderNamesAreRefused() {
        String[] reserved = {"Host", "Content-Type", "content-length", "Anthropic-Version", "anthropic-beta",
                "X-Forwarded-For", "Forwarded", "If-None-Match", "If-Modified-Since", "If-Match", "If-Range",
                "If-Unmodified-Since", "Connection", "Keep-Alive", "TE", "Trailer", "Transfer-Encoding", "Upgrade",
                "Proxy-Connection", "Proxy-Authorization", "x-amz-security-token", "X-Goog-Api-Key", "Expect"};
        for (String name : reserved) {
            ConfigException e = assertThrows(ConfigException.class, () -> AuthMode.parse("header:" + name, null), name);
            assertTrue(e.getMessage().contains("is reserved"), e.getMessage());
            assertThrows(ConfigException.class, () -> AuthMode.parse(null, name), name);
        }
    }

    @Test
    void autoPicksXApiKeyForAnthropicHostsOnly() {
        assertEquals(Kind.X_API_KEY, AuthMode.AUTO.resolveFor(URI.create("https://api.anthropic.com")).kind());
        assertEquals(Kind.X_API_KEY, AuthMode.AUTO.resolveFor(URI.create("https://eu.API.Anthropic.com/v1")).kind());
        assertEquals(Kind.BEARER, AuthMode.AUTO.resolveFor(URI.create("https://api.openai.com")).kind());
        assertEquals(Kind.BEARER, AuthMode.AUTO.resolveFor(URI.create("https://anthropic.com.evil.example")).kind());
        assertEquals(Kind.BEARER, AuthMode.AUTO.resolveFor(URI.create("https://notanthropic.com")).kind());
        assertEquals(Kind.BEARER, AuthMode.AUTO.resolveFor(URI.create("http://127.0.0.1:9000")).kind());
        AuthMode explicit = AuthMode.parse("api-key", null);
        assertEquals(explicit, explicit.resolveFor(URI.create("https://api.anthropic.com")));
    }

    @Test
    void labelsUseTheFlagSpelling() {
        assertEquals("x-api-key", AuthMode.parse("x-api-key", null).label());
        assertEquals("header:X-Key", AuthMode.parse(null, "X-Key").label());
        assertEquals("auto", AuthMode.AUTO.label());
    }
}
