package shaper.proxy;

import java.util.regex.Pattern;

/**
 * Describes a transport failure for a log line without leaking what a URL's query may carry:
 * every {@code ?query} inside the message is replaced by {@code ?[redacted]}.
 */
public final class TransportErrors {
    private static final Pattern QUERY = Pattern.compile("\\?[^\\s\"'<>]*");

    private TransportErrors() {
    }

    public static String describe(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? "" : ": " + redact(root.getMessage());
        return '"' + root.getClass().getSimpleName() + message.replace("\"", "'") + '"';
    }

    public static String redact(String text) {
        return QUERY.matcher(text).replaceAll("?[redacted]");
    }
}
