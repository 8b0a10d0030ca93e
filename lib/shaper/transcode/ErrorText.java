package shaper.transcode;

/** The bound every client-visible error message obeys. */
public final class ErrorText {
    /** Characters kept of a message (upstream or local) before {@code …} is appended. */
    public static final int MAX_CHARS = 2048;

    private ErrorText() {
    }

    /** Whitespace runs become one space, the ends are trimmed, and past {@value #MAX_CHARS} characters the rest becomes {@code …}. */
    public static String bound(String message) {
        if (message == null) {
            return "";
        }
        String s = message.replaceAll("\\s+", " ").trim();
        if (s.length() <= MAX_CHARS) {
            return s;
        }
        int end = MAX_CHARS;
        if (Character.isHighSurrogate(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(0, end) + "…";
    }
}
