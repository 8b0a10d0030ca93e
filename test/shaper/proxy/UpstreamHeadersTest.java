package shaper.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.helidon.http.HeaderNames;
import io.helidon.http.WritableHeaders;

/** The indexed view answers every lookup as Helidon's own {@code values} would. */
class UpstreamHeadersTest {
    @Test
    void presentNamesAnswerAsHelidonDoesAbsentOnesAreEmpty() {
        WritableHeaders<?> h = WritableHeaders.create();
        h.add(HeaderNames.create("Anthropic-RateLimit-Requests-Remaining"), "41");
        h.add(HeaderNames.create("x-ratelimit-reset-tokens"), "6m0s");
        h.add(HeaderNames.RETRY_AFTER, "3");
        h.add(HeaderNames.create("X-Multi"), "a, \"b,c\"", "d");
        UpstreamHeaders view = UpstreamHeaders.of(h);

        assertEquals(List.of("41"), view.values("anthropic-ratelimit-requests-remaining"));
        assertEquals(List.of("41"), view.values("ANTHROPIC-RATELIMIT-REQUESTS-REMAINING"));
        assertEquals(java.util.Optional.of("6m0s"), view.first("X-RateLimit-Reset-Tokens"));
        assertEquals(h.values(HeaderNames.RETRY_AFTER), view.values("retry-after"));
        assertEquals(h.values(HeaderNames.create("x-multi")), view.values("x-multi"));
        assertTrue(view.has("Retry-After"));
        assertEquals(List.of(), view.values("anthropic-ratelimit-tokens-limit"));
        assertFalse(view.has("retry-after-ms"));
        assertTrue(view.mayHaveNameStartingWith("anthropic-ratelimit-"));
        assertTrue(view.mayHaveNameStartingWith("x-ratelimit-"));
        assertFalse(UpstreamHeaders.of(WritableHeaders.create().add(HeaderNames.CONTENT_TYPE, "text/plain"))
                .mayHaveNameStartingWith("x-ratelimit-"));
    }
}
