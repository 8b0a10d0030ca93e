package shaper.metrics;

/**
 * The fail-closed label rule of the per-route families: a value that cannot be written as valid
 * UTF-8 (a lone surrogate in the Java string) makes the text parser reject the whole document,
 * so its series is skipped, never sanitized (sanitizing could merge two routes into one series).
 */
final class LabelValues {
    private LabelValues() {
    }

    static boolean validUtf8(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= value.length() || !Character.isLowSurrogate(value.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
