package shaper.cluster;

/**
 * What one limiter hears from its {@link RedisLink}: pushes on the instance's grant channel, and the
 * link going down or coming back.
 */
interface LinkListener {
    /** A ticket of this limiter was granted in Redis. */
    void granted(String ticketId);

    /** A ticket of this limiter was refused by a full queue for a heavier arrival (Redis removed it). */
    void refused(String ticketId);

    void linkDown();

    void linkUp();

    /** One push for this limiter: {@code <ticket id>} for a grant, {@code !<ticket id>} for a refusal. */
    default void pushed(String word) {
        if (word.startsWith("!")) {
            refused(word.substring(1));
        } else {
            granted(word);
        }
    }
}
