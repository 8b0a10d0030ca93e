package shaper.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;


class StaleReasoningTest {
    private static final String CARRIER = "ccswitch-openai-reasoning-v1:eyJ0eXBlIjoicmVhc29uaW5nIiwiaWQiOiJyc18xIn0";
    private static final String TOOL_INPUT = "{\"a\":0.1,\"b\":1e400,\"c\":12345678901234567890,\"d\":1.0,\"e\":-0.0,\"f\":[1.10,2E-5]}";
    private static final ObjectMapper EXACT = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    private static Optional<String> strip(String json) {
        return StaleReasoning.stripCarriers(json.getBytes(StandardCharsets.UTF_8))
                .map(b -> new String(b, StandardCharsets.UTF_8));
    }

    @Test
    void removesCarrierBlocksAndStraySignaturesKeepingEverythingElseByteForByte() {
        String request = "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":1024,\"temperature\":0.1,\"messages\":["
                + "{\"role\":\"user\",\"content\":\"Add these\"},"
                + "{\"role\":\"assistant\",\"content\":["
                + "{\"type\":\"thinking\",\"thinking\":\"plan\",\"signature\":\"" + CARRIER + "\"},"
                + "{\"type\":\"text\",\"text\":\"Calling calc\",\"signature\":\"" + CARRIER + "\"},"
                + "{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"calc\",\"input\":" + TOOL_INPUT + "}]},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_01\",\"content\":\"42\"}]},"
                + "{\"role\":\"assistant\",\"content\":["
                + "{\"type\":\"thinking\",\"thinking\":\"native\",\"signature\":\"EqQBCkYIARgCIkBnative\"},"
                + "{\"type\":\"redacted_thinking\",\"data\":\"" + CARRIER + "\"},"
                + "{\"type\":\"redacted_thinking\",\"data\":\"EmwKAhgBEgyNative\"},"
                + "{\"type\":\"text\",\"text\":\"done\"}]}],\"stream\":true}";
        String expected = "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":1024,\"temperature\":0.1,\"messages\":["
                + "{\"role\":\"user\",\"content\":\"Add these\"},"
                + "{\"role\":\"assistant\",\"content\":["
                + "{\"type\":\"text\",\"text\":\"Calling calc\"},"
                + "{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"calc\",\"input\":" + TOOL_INPUT + "}]},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_01\",\"content\":\"42\"}]},"
                + "{\"role\":\"assistant\",\"content\":["
                + "{\"type\":\"thinking\",\"thinking\":\"native\",\"signature\":\"EqQBCkYIARgCIkBnative\"},"
                + "{\"type\":\"redacted_thinking\",\"data\":\"EmwKAhgBEgyNative\"},"
                + "{\"type\":\"text\",\"text\":\"done\"}]}],\"stream\":true}";
        assertEquals(Optional.of(expected), strip(request));
    }

    @Test
    void numbersInRetainedJsonKeepTheirExactValueAndText() throws Exception {
        String request = """
                {
                  "model": "claude-opus-4-1",
                  "top_p": 0.1,
                  "messages": [
                    { "role": "assistant",
                      "content": [
                        { "type": "thinking", "thinking": "x", "signature": "%s" },
                        { "type": "tool_use", "id": "toolu_9", "name": "measure",
                          "input": { "tiny": 0.1, "huge": 1e400, "big": 12345678901234567890, "one": 1.0 } }
                      ]
                    }
                  ]
                }
                """.formatted(CARRIER);
        String out = strip(request).orElseThrow();
        assertTrue(out.contains("\"input\": { \"tiny\": 0.1, \"huge\": 1e400, \"big\": 12345678901234567890, \"one\": 1.0 }"), out);
        JsonNode input = EXACT.readTree(out).path("messages").path(0).path("content").path(0).path("input");
        assertEquals(new BigDecimal("0.1"), input.path("tiny").decimalValue());
        assertEquals(new BigDecimal("1e400"), input.path("huge").decimalValue());
        assertEquals(new BigInteger("12345678901234567890"), input.path("big").bigIntegerValue());
        assertEquals("1.0", input.path("one").decimalValue().toPlainString());
        assertEquals(0.1, EXACT.readTree(out).path("top_p").doubleValue());
        assertEquals(1, EXACT.readTree(out).path("messages").path(0).path("content").size());
    }

    @Test
    void messageLeftWithoutContentIsDropped() {
        String request = "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"},"
                + "{\"role\":\"assistant\",\"content\":[{\"type\":\"redacted_thinking\",\"data\":\"" + CARRIER + "\"}]},"
                + "{\"role\":\"user\",\"content\":\"again\"}]}";
        assertEquals(Optional.of("{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"},{\"role\":\"user\",\"content\":\"again\"}]}"),
                strip(request));
    }

    @Test
    void escapedKeysAndValuesAreRecognizedAndTrickyStringsSurvive() {
        String escapedCarrier = CARRIER.replace("v1:", "v1\\u003a");
        String request = "{\"messages\":[{\"role\":\"assistant\",\"content\":["
                + "{\"\\u0074ype\":\"thinking\",\"thinking\":\"a ] } \\\" [ { ,\",\"signature\":\"" + escapedCarrier + "\"},"
                + "{\"type\":\"text\",\"text\":\"keep ] } \\\\\\\" , me\"}]}]}";
        assertEquals(Optional.of("{\"messages\":[{\"role\":\"assistant\",\"content\":["
                + "{\"type\":\"text\",\"text\":\"keep ] } \\\\\\\" , me\"}]}]}"), strip(request));
    }

    @Test
    void nothingToStripMeansNoRewrite() {
        assertEquals(Optional.empty(), strip("{\"messages\":[{\"role\":\"assistant\",\"content\":["
                + "{\"type\":\"thinking\",\"thinking\":\"t\",\"signature\":\"EqQBnative\"}]}]}"));
        assertEquals(Optional.empty(), strip("{\"messages\":[{\"role\":\"user\",\"content\":\"" + CARRIER + "\"}]}"));
        assertEquals(Optional.empty(), strip("{\"messages\":[]}"));
    }

    @Test
    void responsesInputItemsAreNotRewritten() {
        assertEquals(Optional.empty(), strip("{\"model\":\"gpt-5\",\"input\":[{\"type\":\"reasoning\",\"id\":\"rs_1\","
                + "\"encrypted_content\":\"" + CARRIER + "\"}]}"));
    }

    @Test
    void malformedOrNonObjectBodiesAreLeftAlone() {
        assertEquals(Optional.empty(), strip("{\"messages\":[{\"content\":[{\"type\":\"thinking\",\"signature\":\"" + CARRIER + "\"}"));
        assertEquals(Optional.empty(), strip("[{\"messages\":[]}]"));
        assertEquals(Optional.empty(), strip("{\"messages\":{}} {\"x\":1}"));
        assertEquals(Optional.empty(), strip(""));
        assertEquals(Optional.empty(), StaleReasoning.stripCarriers(null));
    }

    @Test
    void recognizesResourceMismatchOnlyOnBadRequest() {
        byte[] verified = RetryPolicyTest.ENCRYPTED_MISMATCH.getBytes(StandardCharsets.UTF_8);
        assertTrue(StaleReasoning.isResourceMismatch(400, verified));
        assertFalse(StaleReasoning.isResourceMismatch(422, verified));
        assertTrue(StaleReasoning.isResourceMismatch(400, ("{\"error\":{\"message\":\"Item with id 'rs_68af' not found. Items are not "
                + "persisted when `store` is set to false.\",\"type\":\"invalid_request_error\",\"param\":\"input\"}}")
                .getBytes(StandardCharsets.UTF_8)));
        assertTrue(StaleReasoning.isResourceMismatch(400, "{\"error\":{\"code\":\"invalid_encrypted_content\"}}".getBytes(StandardCharsets.UTF_8)));
        assertFalse(StaleReasoning.isResourceMismatch(400, RetryPolicyTest.ANTHROPIC_INVALID.getBytes(StandardCharsets.UTF_8)));
        assertFalse(StaleReasoning.isResourceMismatch(400, new byte[0]));
    }
}
