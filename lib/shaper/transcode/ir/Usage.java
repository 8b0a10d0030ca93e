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

    /** Whether nothing at all is known. */
    public boolean unknown() {
        return input == null && output == null && cacheRead == null && cacheWrite == null && reasoning == null;
    }
}
