package shaper.observe;

import java.time.Duration;
import java.util.List;

/**
 * What a trace exporter hears of one exchange, as its {@link ExchangeTrace} is stamped: the stages the
 * handler already reports, no second path beside them. {@link #NONE} (tracing off) does nothing and
 * asks for no header, so the client's own trace headers pass upstream untouched.
 *
 * <p>Threads: called on the exchange's own thread, or on the one stream thread relaying its answer
 * while that thread waits; never concurrently. No method may block or throw.
 */
public interface ExchangeSpans {
    /** Tracing off. */
    ExchangeSpans NONE = new ExchangeSpans() {
    };

    /**
     * A limiter (or the token budget) queued the exchange.
     *
     * @param limiter  the limiter's name ({@code budget}, a route key, {@code global}, …)
     * @param position its place in that queue when it joined, counting itself (1 = next)
     * @param cls      the priority class it waits in, empty when the provider declares none
     * @param client   who waits: the exchange's client identity ({@code anonymous} when none)
     */
    default void queued(String limiter, int position, String cls, String client) {
    }

    /** Admission ended, granted or refused. */
    default void queueEnded() {
    }

    /**
     * An upstream attempt starts.
     *
     * @param attempt its number, from 1
     * @return the trace header fields this attempt sends upstream in place of the client's; empty to send the client's as they are
     */
    default List<Header> attemptStarted(int attempt) {
        return List.of();
    }

    /** The attempt's response head arrived with {@code status}. */
    default void attemptAnswered(int status) {
    }

    /** The attempt ends in a retry: why, and how long the exchange waits before the next one. */
    default void retrying(String reason, Duration backoff) {
    }

    /** A conversion between dialects starts: {@code request} before the first attempt, {@code response} while relaying. */
    default void transcoding(String phase) {
    }

    /** The conversion started last ended. */
    default void transcoded() {
    }

    /**
     * The exchange ended with {@code record}; called once, last.
     *
     * @param answer what the relayed answer said of itself (model, finish reason); {@link AnswerFacts#NONE} when nothing was read
     */
    default void finished(ExchangeRecord record, AnswerFacts answer) {
    }

    /** {@link #finished} with what {@code scanned} read of the answer (null: nothing); a tracer's failure is swallowed. */
    default void finishedQuietly(ExchangeRecord record, shaper.usage.UsageScanner scanned) {
        try {
            finished(record, scanned == null ? AnswerFacts.NONE : new AnswerFacts(scanned.answerModel(), scanned.finishReason()));
        } catch (RuntimeException e) {
            // a tracer's failure never costs the exchange its record, its count or its log line
        }
    }

    /**
     * What an answer said about itself, read by the usage scan as it passed (never its content).
     *
     * @param model        the model the answer named, empty when none
     * @param finishReason why generation stopped ({@code end_turn}, {@code stop}, …), empty when unknown
     */
    record AnswerFacts(String model, String finishReason) {
        public static final AnswerFacts NONE = new AnswerFacts("", "");

        public AnswerFacts {
            model = model == null ? "" : model;
            finishReason = finishReason == null ? "" : finishReason;
        }
    }
}
