package shaper.transcode;

/**
 * The error {@code type} Anthropic and OpenAI both give a status: 401 authentication_error, 403
 * permission_error, 429 rate_limit_error, 529 overloaded_error, other 5xx api_error, other 4xx
 * invalid_request_error. A dialect's own table adds its extra types in front of this one.
 */
public final class ErrorTypes {
    private ErrorTypes() {
    }

    public static String shared(int status) {
        return switch (status) {
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 429 -> "rate_limit_error";
            case 529 -> "overloaded_error";
            default -> status >= 500 ? "api_error" : "invalid_request_error";
        };
    }
}
