package shaper.transcode.ir;

/**
 * Token counts; {@code null} is unknown, never the same as zero. {@code input} excludes tokens
 * read from a cache ({@code cacheRead}) and written to one ({@code cacheWrite}), as Anthropic counts
 * them, so no token is counted twice.
 */
public record Usage(Long input, Long output, Long cacheRead, Long cacheWrite, Long reasoning) {
    public static final Usage UNKNOWN = new Usage(null, null, null, null, null);

    public Usage {
        for (Long n : new Long[] {input, output, cacheRead, cacheWrite, reasoning}) {
            if (n != null && n < 0) {
                throw new IllegalArgumentException("usage count: " + n + " (expected: >= 0)");
            }
        }
    }

    /**
     * This usage refined by a later report of the same answer: each count {@code newer} knows
     * replaces this one's, and an unknown count in {@code newer} keeps the earlier value.
     */
    public Usage refinedBy(Usage newer) {
        return new Usage(pick(input, newer.input), pick(output, newer.output), pick(cacheRead, newer.cacheRead),
                pick(cacheWrite, newer.cacheWrite), pick(reasoning, newer.reasoning));
    }

    private static Long pick(Long older, Long newer) {
        return newer != null ? newer : older;
    }

    /** Whether nothing at all is known. */
    public boolean unknown() {
        return input == null && output == null && cacheRead == null && cacheWrite == null && reasoning == null;
    }
}
