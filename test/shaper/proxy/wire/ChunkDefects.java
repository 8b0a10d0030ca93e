package shaper.proxy.wire;

import java.util.Random;

/** The one defect a broken chunk stream of {@link FuzzedAnswer} carries after its valid chunks, then the marker as data. */
final class ChunkDefects {
    private ChunkDefects() {
    }

    /** Appends a broken frame and data carrying the marker to {@code w}; returns the defect's name. */
    static String apply(Random r, StringBuilder w, String marker) {
        String data = marker + FuzzedAnswer.text(r, 16);
        String hex = Integer.toHexString(data.length());
        String[] lines = {
            hex.charAt(0) + " " + hex.substring(1),
            hex.charAt(0) + "\r" + hex.substring(1),
            hex + "x",
            "-" + hex,
            "",
            ";" + hex,
            " " + hex,
            "1" + "0".repeat(16),
            hex + ";a=\u0000",
            hex + "\u000b",
        };
        int pick = r.nextInt(lines.length + 2);
        if (pick == lines.length) {
            // the data itself is handed on as it arrives: only what follows the missing CRLF is the marker's
            String plain = FuzzedAnswer.text(r, 16);
            w.append(Integer.toHexString(plain.length())).append("\r\n").append(plain).append("XX").append(marker).append("\r\n0\r\n\r\n");
            return "chunk data not followed by CRLF";
        }
        if (pick == lines.length + 1) {
            w.append("0\r\nX-T: a\r").append(marker).append(": 1\r\n\r\n");
            return "bare CR in a trailer field";
        }
        w.append(lines[pick]).append("\r\n").append(data).append("\r\n0\r\n\r\n");
        return "chunk-size line " + lines[pick].replace("\r", "\\r").replace("\u0000", "\\0").replace("\u000b", "\\v");
    }
}
