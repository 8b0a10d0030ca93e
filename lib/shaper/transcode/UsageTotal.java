package shaper.transcode;

/**
 * An upstream usage's two counts (prompt/input and completion/output) after checking them against
 * its {@code total_tokens}: a missing part is derived from the total (a note), a total that
 * disagrees is a note, and a total with both parts missing breaks the contract. It exists because
 * Chat and Responses usage differ only in the field names of this rule.
 */
public record UsageTotal(Long in, Long out) {
    /**
     * Reads {@code usage}'s two counts and its {@code total_tokens}, then {@link #reconcile}s them.
     *
     * @return null when the upstream sent no usage (absent or JSON null)
     */
    public static UsageTotal read(com.fasterxml.jackson.databind.JsonNode usage, String inName, String outName, ConversionReport report) {
        if (usage == null || usage.isNull()) {
            return null;
        }
        JsonFields.UPSTREAM.object(usage, "usage");
        Long in = count(usage, inName, "usage", report);
        Long out = count(usage, outName, "usage", report);
        Long total = count(usage, "total_tokens", "usage", report);
        return reconcile(in, out, total, inName, outName, report);
    }

    /** An optional count; a negative one is repaired to 0 (a note). */
    public static Long count(com.fasterxml.jackson.databind.JsonNode node, String name, String path, ConversionReport report) {
        Long v = JsonFields.UPSTREAM.optLong(node, name, path);
        if (v != null && v < 0) {
            report.note(LossKey.USAGE_NEGATIVE_COUNTS, path + "." + name);
            return 0L;
        }
        return v;
    }

    public static UsageTotal reconcile(Long in, Long out, Long total, String inName, String outName, ConversionReport report) {
        if (total == null) {
            return new UsageTotal(in, out);
        }
        if (in == null && out == null) {
            throw JsonFields.UPSTREAM.fail("usage: total_tokens without " + inName + " and " + outName);
        }
        if (in == null || out == null) {
            report.note(LossKey.USAGE_TOTAL_DERIVED, "usage");
            if (in == null) {
                in = Math.max(0, total - out);
            } else {
                out = Math.max(0, total - in);
            }
        } else if (total != in + out) {
            report.note(LossKey.USAGE_TOTAL_MISMATCH, "usage.total_tokens");
        }
        return new UsageTotal(in, out);
    }

    /**
     * A cache part of an input count (reads or writes, at {@code path}) clamped to that count, with a
     * note when it exceeded it. Unknown stays unknown.
     */
    public static Long clampPart(Long part, Long input, String path, ConversionReport report) {
        if (part != null && input != null && part > input) {
            report.note(LossKey.USAGE_CACHE_EXCEEDS_INPUT, path);
            return input;
        }
        return part;
    }

    /** {@code input} without a (clamped) part of it; unknown when the input is, the input when the part is. */
    public static Long less(Long input, Long part) {
        return input == null || part == null ? input : input - part;
    }
}
