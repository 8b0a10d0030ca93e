package shaper.proxy;

import java.util.Optional;

import shaper.retry.RetryDecision;
import shaper.retry.RetryReason;
import shaper.retry.StaleReasoning;

/**
 * What an attempt's answer means for the attempt loop, decided from the retry policy's verdict and
 * the request body alone: no sockets, no clocks, so it is tested as a plain function.
 * <ul>
 *   <li>{@link Retry}: replay after the backoff (with the stale reasoning carriers stripped when
 *       that is the reason, and only if there was something to strip);</li>
 *   <li>{@link Accept}: relay this answer; {@code retriesExhausted} when retrying was wanted but the
 *       budget ran out, so the client is told how long to wait ({@code Retry-After}).</li>
 * </ul>
 */
sealed interface ResponseDecision {

    record Retry(RetryDecision.Retry retry, byte[] replacedBody) implements ResponseDecision {
    }

    record Accept(boolean retriesExhausted) implements ResponseDecision {
    }

    /**
     * @param policyVerdict the retry policy's verdict on the answer, or null when the answer was not
     *                      judged (not replayable, or nothing to judge: a 2xx/3xx)
     * @param requestBody   the buffered request body, or null when it was streamed
     */
    static ResponseDecision of(RetryDecision policyVerdict, byte[] requestBody) {
        return switch (policyVerdict) {
            case null -> new Accept(false);
            case RetryDecision.Retry r when r.reason() == RetryReason.STALE_REASONING -> {
                Optional<byte[]> stripped = requestBody == null ? Optional.empty() : StaleReasoning.stripCarriers(requestBody);
                yield stripped.<ResponseDecision>map(b -> new Retry(r, b)).orElse(new Accept(false));
            }
            case RetryDecision.Retry r -> new Retry(r, null);
            case RetryDecision.GiveUp g -> new Accept(g.reason().budgetExhausted());
        };
    }
}
