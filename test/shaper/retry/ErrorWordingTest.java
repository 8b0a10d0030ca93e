package shaper.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

import org.junit.jupiter.api.Test;

class ErrorWordingTest {
    /** The phrases AR-Proxy's README names as recognized; the constant must keep every one of them. */
    private static final String[] AR_PROXY_README_WORDING = {
            "too_many_requests", "rate limit", "quota exceeded", "overloaded", "failed before output",
            "experiencing high demand", "Upstream service unavailable"};

    @Test
    void everyDocumentedPhraseIsRecognizedInAnyCase() {
        for (String phrase : AR_PROXY_README_WORDING) {
            assertEquals(ErrorSignal.RATE_LIMIT_OR_TRANSIENT, ErrorWording.scan("{\"message\":\"x " + phrase + " y\"}"), phrase);
            assertEquals(ErrorSignal.RATE_LIMIT_OR_TRANSIENT, ErrorWording.scan(phrase.toUpperCase(Locale.ROOT)), phrase);
        }
        for (String phrase : ErrorWording.RATE_LIMIT_OR_TRANSIENT) {
            assertEquals(ErrorSignal.RATE_LIMIT_OR_TRANSIENT, ErrorWording.scan(phrase), phrase);
        }
    }

    @Test
    void invalidRequestWordingTakesPrecedence() {
        for (String phrase : ErrorWording.INVALID_REQUEST) {
            assertEquals(ErrorSignal.INVALID_REQUEST, ErrorWording.scan("Overloaded. " + phrase.toUpperCase(Locale.ROOT)), phrase);
        }
    }

    @Test
    void unrelatedOrEmptyBodiesSayNothing() {
        assertEquals(ErrorSignal.NONE, ErrorWording.scan(RetryPolicyTest.FORMAT_422));
        assertEquals(ErrorSignal.NONE, ErrorWording.scan(RetryPolicyTest.OPENAI_INSUFFICIENT_QUOTA));
        assertEquals(ErrorSignal.NONE, ErrorWording.scan((String) null));
        assertEquals(ErrorSignal.NONE, ErrorWording.scan(new byte[0]));
    }

    @Test
    void bytesAreDecodedAsUtf8AndBounded() {
        assertEquals(ErrorSignal.RATE_LIMIT_OR_TRANSIENT,
                ErrorWording.scan("{\"message\":\"Über: overloaded\"}".getBytes(StandardCharsets.UTF_8)));
        byte[] late = ("x".repeat(ErrorWording.MAX_SCAN_BYTES) + "overloaded").getBytes(StandardCharsets.UTF_8);
        assertEquals(ErrorSignal.NONE, ErrorWording.scan(late));
    }
}
