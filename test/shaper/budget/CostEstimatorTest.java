package shaper.budget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;

import shaper.usage.TokenUsage;

/** The admission-time estimate of a request's input and output. */
class CostEstimatorTest {
    private static byte[] json(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A PNG header declaring {@code w} × {@code h} pixels, then bulk the size of a real image. */
    private static String png(int w, int h) {
        ByteBuffer b = ByteBuffer.allocate(200_000);
        b.put(new byte[] {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, 0, 0, 13, 'I', 'H', 'D', 'R'});
        b.putInt(w).putInt(h);
        return Base64.getEncoder().encodeToString(b.array());
    }

    @Test
    void inputIsTheTextAtFourCharactersATokenAndOutputStartsAtTheDocumentedMeanCappedByMaxTokens() {
        CostEstimator e = new CostEstimator();
        Cost c = e.estimate(json("{\"model\":\"claude-x\",\"max_tokens\":32000,\"messages\":[{\"role\":\"user\",\"content\":\""
                + "a".repeat(4000) + "\"}]}"), -1);
        assertEquals("claude-x", c.model());
        assertTrue(c.input() >= 1000 && c.input() < 1020, c.toString());
        assertEquals(OutputMeans.START, c.output());
        assertEquals(100, e.estimate(json("{\"model\":\"m\",\"max_completion_tokens\":100,\"messages\":[]}"), -1).output());
        assertEquals(7, e.estimate(json("{\"model\":\"m\",\"max_output_tokens\":7,\"input\":\"hi\"}"), -1).output());
    }

    @Test
    void outputFollowsWhatTheModelActuallyProduced() {
        CostEstimator e = new CostEstimator();
        Cost c = e.estimate(json("{\"model\":\"m\",\"messages\":[]}"), -1);
        for (int i = 0; i < 40; i++) {
            e.learn(c, new TokenUsage("m", 1, 200, 0, 0, 0, TokenUsage.Source.REPORTED));
        }
        assertEquals(200, e.estimate(json("{\"model\":\"m\",\"messages\":[]}"), -1).output(), 2);
        assertEquals(OutputMeans.START, e.estimate(json("{\"model\":\"other-model\",\"messages\":[]}"), -1).output());
    }

    @Test
    void imagesCountByTheirDeclaredSizeNotTheirBase64Length() {
        CostEstimator e = new CostEstimator();
        String messages = "{\"model\":\"m\",\"max_tokens\":1,\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image\",\"source\":"
                + "{\"type\":\"base64\",\"media_type\":\"image/png\",\"data\":\"" + png(200, 150) + "\"}}]}]}";
        assertTrue(e.estimate(json(messages), -1).input() < 100, "200 x 150 is 40 tokens, not 66k of base64");
        String chat = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":"
                + "\"data:image/png;base64," + png(4000, 3000) + "\"}}]}]}";
        assertEquals(CostEstimator.IMAGE_TOKENS, e.estimate(json(chat), -1).input(), 20, "a large image scales to at most 1600");
    }

    @Test
    void aBodyThatWasNotReadCountsItsDeclaredLength() {
        assertEquals(new Cost("", 250, 0), new CostEstimator().estimate(null, 1000));
    }
}
