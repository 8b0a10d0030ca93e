package shaper.tui;

import java.util.Optional;

/**
 * The dashboard's two startup queries and how their replies read. Sent together at startup
 * ({@link #QUERIES}): the background colour (OSC 11, answered by xterm-like terminals and by tmux
 * when it knows the pane's background) and then the device attributes (DA1, answered by every
 * terminal). Replies come in the order of the queries, so the DA1 reply closes the wait for a colour.
 */
final class TerminalReplies {
    /** OSC 11 "what is the background?" (ST-terminated), then DA1. */
    static final String QUERIES = "\033]11;?\033\\\033[c";

    private TerminalReplies() {
    }

    /**
     * The colour of an OSC 11 reply's body ({@code 11;rgb:RRRR/GGGG/BBBB}, one to four hex digits per
     * channel), as 0xRRGGBB; empty for any other string.
     */
    static Optional<Integer> background(String osc) {
        if (!osc.startsWith("11;rgb:")) {
            return Optional.empty();
        }
        String[] parts = osc.substring("11;rgb:".length()).split("/");
        if (parts.length != 3) {
            return Optional.empty();
        }
        int rgb = 0;
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 4 || !p.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                return Optional.empty();
            }
            int max = (1 << (4 * p.length())) - 1;
            rgb = rgb << 8 | (int) Math.round(Integer.parseInt(p, 16) * 255.0 / max);
        }
        return Optional.of(rgb);
    }

    /** Whether a CSI sequence's body (after {@code ESC [}) is a DA1 reply, {@code ?…c}. */
    static boolean deviceAttributes(String csi) {
        return csi.startsWith("?") && csi.endsWith("c");
    }

    /**
     * The background {@code COLORFGBG} names ({@code "fg;bg"}, set by rxvt, Konsole and others), for
     * terminals that do not answer OSC 11: ANSI colours 7 and 9-15 are light, the rest dark; empty
     * when unset or unreadable.
     */
    static Optional<Boolean> lightFromColorFgBg(String value) {
        if (value == null || !value.contains(";")) {
            return Optional.empty();
        }
        String bg = value.substring(value.lastIndexOf(';') + 1).trim();
        try {
            int index = Integer.parseInt(bg);
            return Optional.of(index == 7 || index >= 9 && index <= 15);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
