package shaper.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.auth.ClientKeys.Dialect;
import shaper.config.ConfigException;

class ClientKeysTest {
    private static final String ALICE = "ck-alice-7f3a9c";
    private static final String BOB = "ck-bob-e41d02";
    private static final Map<String, String> ENV = Map.of("ALICE_KEY", ALICE, "BOB_KEY", " " + BOB + "\n");

    @TempDir
    Path dir;

    private static ClientKeys keys() {
        return ClientKeys.resolve(List.of("env:ALICE_KEY", "env:BOB_KEY"), ENV::get);
    }

    @Test
    void keyIsAcceptedInEachOfTheThreeFields() {
        ClientKeys keys = keys();
        assertEquals(Optional.of("env:ALICE_KEY"), keys.check(TestHeaders.of("Authorization", "Bearer " + ALICE)));
        assertEquals(Optional.of("env:ALICE_KEY"), keys.check(TestHeaders.of("authorization", "bearer  " + ALICE + " ")));
        assertEquals(Optional.of("env:BOB_KEY"), keys.check(TestHeaders.of("X-Api-Key", BOB)));
        assertEquals(Optional.of("env:BOB_KEY"), keys.check(TestHeaders.of("api-key", BOB)));
    }

    @Test
    void wrongMissingOrMisplacedKeyIsRejected() {
        ClientKeys keys = keys();
        assertEquals(Optional.empty(), keys.check(TestHeaders.of()));
        assertEquals(Optional.empty(), keys.check(TestHeaders.of("Authorization", "Bearer " + ALICE + "x")));
        assertEquals(Optional.empty(), keys.check(TestHeaders.of("Authorization", "Bearer " + ALICE.substring(1))));
        assertEquals(Optional.empty(), keys.check(TestHeaders.of("Authorization", ALICE)));
        assertEquals(Optional.empty(), keys.check(TestHeaders.of("Authorization", "Basic " + ALICE)));
        assertEquals(Optional.empty(), keys.check(TestHeaders.of("Authorization", "Bearer ")));
        assertEquals(Optional.empty(), keys.check(TestHeaders.of("X-Api-Key", "")));
        assertEquals(Optional.empty(), keys.check(TestHeaders.of("X-Goog-Api-Key", ALICE)));
        assertEquals(Optional.empty(), keys.check(TestHeaders.of("Cookie", "key=" + ALICE)));
    }

    @Test
    void anyFieldCarryingAKeyAdmitsEvenBesideAnUpstreamCredential() {
        TestHeaders h = TestHeaders.of("Authorization", "Bearer sk-upstream", "x-api-key", ALICE);
        assertEquals(Optional.of("env:ALICE_KEY"), keys().check(h));
    }

    @Test
    void keyFromFileIsResolved() throws IOException {
        Path file = Files.writeString(dir.resolve("client.key"), ALICE + "\n");
        ClientKeys keys = ClientKeys.resolve(List.of("file:" + file), Map.<String, String>of()::get);
        assertEquals(Optional.of("file:" + file), keys.check(TestHeaders.of("api-key", ALICE)));
    }

    @Test
    void noConfiguredKeysRequireNothing() {
        ClientKeys none = ClientKeys.resolve(List.of(), Map.<String, String>of()::get);
        assertFalse(none.required());
        assertTrue(keys().required());
        assertEquals(Optional.empty(), none.check(TestHeaders.of("Authorization", "Bearer anything")));
    }

    @Test
    void badKeySourcesFailNamingTheReference() {
        ConfigException unset = assertThrows(ConfigException.class,
                () -> ClientKeys.resolve(List.of("env:NO_SUCH_KEY"), Map.<String, String>of()::get));
        assertEquals("-client-key env:NO_SUCH_KEY: environment variable NO_SUCH_KEY is not set", unset.getMessage());
        ConfigException none = assertThrows(ConfigException.class, () -> ClientKeys.resolve(List.of("none"), ENV::get));
        assertTrue(none.getMessage().startsWith("-client-key: unrecognized value (expected: env:VAR or file:PATH"), none.getMessage());
        ConfigException literal = assertThrows(ConfigException.class, () -> ClientKeys.resolve(List.of(ALICE), ENV::get));
        assertFalse(literal.getMessage().contains(ALICE), literal.getMessage());
    }

    @Test
    void stripRemovesOnlyFieldsCarryingTheClientKey() {
        TestHeaders h = TestHeaders.of("Authorization", "Bearer " + ALICE, "X-Api-Key", "sk-ant-upstream",
                "Api-Key", BOB, "Cookie", "a=b");
        keys().strip(h);
        assertEquals(List.of("X-Api-Key: sk-ant-upstream", "Cookie: a=b"), h.lines());

        TestHeaders viaXApiKey = TestHeaders.of("x-api-key", ALICE, "Authorization", "Bearer sk-openai-upstream");
        keys().strip(viaXApiKey);
        assertEquals(List.of("Authorization: Bearer sk-openai-upstream"), viaXApiKey.lines());
    }

    @Test
    void comparisonIsConstantTimeOverDigests() throws IOException {
        // Guards against a refactor to String.equals, whose early exit leaks how much of a key matched.
        String source = Files.readString(Path.of("lib/shaper/auth/ClientKeys.java"));
        assertTrue(source.contains("MessageDigest.isEqual(digest, key.digest())"), "keys must be compared with MessageDigest.isEqual");
        assertFalse(source.matches("(?s).*\\.equals\\((candidate|presented|digest)\\).*"), "no early-exit comparison of keys");
    }

    @Test
    void dialectFollowsPathAndAnthropicVersion() {
        assertEquals(Dialect.ANTHROPIC, ClientKeys.dialect("/anthropic/v1/messages", TestHeaders.of()));
        assertEquals(Dialect.ANTHROPIC, ClientKeys.dialect("/v1/messages?beta=true", TestHeaders.of()));
        assertEquals(Dialect.ANTHROPIC, ClientKeys.dialect("/v1/messages/", TestHeaders.of()));
        assertEquals(Dialect.ANTHROPIC, ClientKeys.dialect("/v1/models", TestHeaders.of("Anthropic-Version", "2023-06-01")));
        assertEquals(Dialect.OPENAI, ClientKeys.dialect("/v1/chat/completions", TestHeaders.of()));
        assertEquals(Dialect.OPENAI, ClientKeys.dialect("/v1/messages/count_tokens", TestHeaders.of()));
        assertEquals(Dialect.OPENAI, ClientKeys.dialect("/v1/responses", TestHeaders.of("anthropic-version", " ")));
    }

    @Test
    void rejectionBodiesAreValidJsonInBothDialects() throws IOException {
        ObjectMapper json = new ObjectMapper();
        JsonNode anthropic = json.readTree(ClientKeys.rejection(Dialect.ANTHROPIC));
        assertEquals("error", anthropic.path("type").asText());
        assertEquals("authentication_error", anthropic.path("error").path("type").asText());
        assertFalse(anthropic.path("error").path("message").asText().isBlank());

        JsonNode openai = json.readTree(ClientKeys.rejection(Dialect.OPENAI));
        assertEquals("invalid_request_error", openai.path("error").path("type").asText());
        assertEquals("invalid_api_key", openai.path("error").path("code").asText());
        assertFalse(openai.path("error").path("message").asText().isBlank());
        assertEquals(401, ClientKeys.REJECTION_STATUS);
    }

    @Test
    void rejectionNeverEchoesThePresentedKey() {
        String presented = "ck-wrong-presented-secret";
        ClientKeys keys = keys();
        TestHeaders h = TestHeaders.of("Authorization", "Bearer " + presented);
        assertEquals(Optional.empty(), keys.check(h));
        for (Dialect d : Dialect.values()) {
            assertFalse(ClientKeys.rejection(d).contains(presented));
            assertFalse(ClientKeys.rejection(d).contains(ALICE));
        }
    }

    @Test
    void describeAndToStringNameOnlyReferences() {
        ClientKeys keys = keys();
        assertEquals("client keys: env:ALICE_KEY, env:BOB_KEY", keys.describe());
        assertFalse(keys.toString().contains(ALICE) || keys.toString().contains(BOB), keys.toString());
        assertEquals("client keys: none (every client admitted)", ClientKeys.none().describe());
    }
}
