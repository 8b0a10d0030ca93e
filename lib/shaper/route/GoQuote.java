package shaper.route;

/**
 * Double-quotes a string the way Go's {@code %q} does for printable text: quotes and backslashes
 * escaped, control characters shown as escapes, so a pattern quoted in a message shows exactly where
 * it starts and ends and what it holds, whatever the command line put in it.
 */
final class GoQuote {
    private GoQuote() {
    }

    static String of(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
