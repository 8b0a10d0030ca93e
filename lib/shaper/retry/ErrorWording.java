package shaper.retry;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The error-body wording the retry policy recognizes as a rate limit or a passing failure, matched
 * case-insensitively as plain substrings of the (already decompressed) body. This is the one place where text becomes a type:
 * {@link #scan} returns an {@link ErrorSignal} and everything downstream switches on that.
 *
 * <p>Only a bounded prefix ({@link #MAX_SCAN_BYTES}) is read, so a huge error page costs nothing.
 */
public final class ErrorWording {
    /** Bytes of a body that are scanned; the rest is ignored. */
    public static final int MAX_SCAN_BYTES = 16 * 1024;

    /**
     * Rate-limit and transient-failure wording as relays and providers write it in error messages
     * ({@code too_many_requests}, {@code rate limit}, {@code quota exceeded}, {@code overloaded},
     * {@code failed before output}, {@code experiencing high demand}, {@code Upstream service unavailable})
     * plus the spellings the same providers use for those conditions in codes and types ({@code rate_limit_error},
     * {@code rate_limit_exceeded}, {@code Too Many Requests}). {@code overloaded} covers Anthropic's
     * {@code overloaded_error}.
     */
    public static final List<String> RATE_LIMIT_OR_TRANSIENT = List.of(
            "too_many_requests",
            "too many requests",
            "rate limit",
            "rate_limit",
            "quota exceeded",
            "overloaded",
            "failed before output",
            "experiencing high demand",
            "upstream service unavailable");

    /**
     * Wording that marks a deterministic invalid request. It takes precedence over
     * {@link #RATE_LIMIT_OR_TRANSIENT}: such a body is never retried, whatever its status.
     */
    public static final List<String> INVALID_REQUEST = List.of(
            "invalid_request_error",
            "rejected the request as invalid");

    private ErrorWording() {
    }

    /** Scans at most {@link #MAX_SCAN_BYTES} of {@code body} (UTF-8; malformed bytes are tolerated). */
    public static ErrorSignal scan(byte[] body) {
        if (body == null || body.length == 0) {
            return ErrorSignal.NONE;
        }
        return scan(lowerPrefix(body));
    }

    /** Scans {@code text}, which may be a body or one SSE frame's data. */
    public static ErrorSignal scan(String text) {
        if (text == null || text.isEmpty()) {
            return ErrorSignal.NONE;
        }
        String lower = text.length() > MAX_SCAN_BYTES
                ? text.substring(0, MAX_SCAN_BYTES).toLowerCase(Locale.ROOT)
                : text.toLowerCase(Locale.ROOT);
        if (containsAny(lower, INVALID_REQUEST)) {
            return ErrorSignal.INVALID_REQUEST;
        }
        if (containsAny(lower, RATE_LIMIT_OR_TRANSIENT)) {
            return ErrorSignal.RATE_LIMIT_OR_TRANSIENT;
        }
        return ErrorSignal.NONE;
    }

    /** The first {@link #MAX_SCAN_BYTES} bytes of {@code body} decoded as UTF-8 and lower-cased. */
    static String lowerPrefix(byte[] body) {
        int n = Math.min(body.length, MAX_SCAN_BYTES);
        return new String(body, 0, n, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
    }

    static boolean containsAny(String lower, List<String> fragments) {
        for (String f : fragments) {
            if (lower.contains(f)) {
                return true;
            }
        }
        return false;
    }
}
