package shaper.limit;

/**
 * An adaptive limit moved, for the log.
 *
 * @param limiter the limiter's name
 * @param from    the limit before
 * @param to      the limit now
 * @param reason  why, for a person: {@code "5 clean completions at 5"}, {@code "429"},
 *                {@code "first byte 312ms, floor 101ms"}
 */
public record LimitChange(String limiter, int from, int to, String reason) {
}
