package shaper.proxy.wire;

import java.util.Random;

/** The one defect a broken head of {@link FuzzedAnswer} carries, appended to the head's field lines. */
final class HeadDefects {
    private HeadDefects() {
    }

    /** Appends a defect to {@code w} (a status line and fields so far, without the empty line); returns its name. */
    static String apply(Random r, StringBuilder w, String marker, String eol) {
        String name = "X-Fz-" + FuzzedAnswer.token(r, 3);
        switch (r.nextInt(13)) {
            case 0 -> {
                w.append(name).append(": a").append(eol).append(r.nextBoolean() ? " " : "\t").append("X-").append(marker).append(": 1").append(eol);
                return "obs-fold";
            }
            case 1 -> {
                int end = w.indexOf(eol) + eol.length(); // after the status line
                w.insert(end, " X-" + marker + ": 1" + eol);
                return "whitespace before the first field";
            }
            case 2 -> {
                w.append(name).append(": a\r").append(marker).append(eol);
                return "bare CR in a value";
            }
            case 3 -> {
                char ctl = "\u0000\u0001\u0008\u000b\u000c\u001b\u001f\u007f".charAt(r.nextInt(8));
                w.append(name).append(": a").append(ctl).append(marker).append(eol);
                return "control character 0x" + Integer.toHexString(ctl);
            }
            case 4 -> {
                w.append("X").append(FuzzedAnswer.notTchar(r)).append(marker).append(": 1").append(eol);
                return "name not a token";
            }
            case 5 -> {
                w.append(marker).append(eol);
                return "line without a colon";
            }
            case 6 -> {
                int bad = r.nextBoolean() ? r.nextInt(100) : 600 + r.nextInt(400);
                replaceStatus(w, String.format("%03d", bad));
                w.append("X-").append(marker).append(": 1").append(eol);
                return "status " + bad;
            }
            case 7 -> {
                replaceStatus(w, "2" + FuzzedAnswer.notTchar(r) + "0");
                w.append("X-").append(marker).append(": 1").append(eol);
                return "status not three digits";
            }
            case 8 -> {
                int end = w.lastIndexOf("HTTP/1.1 ");
                int lineEnd = w.indexOf(eol, end);
                w.insert(lineEnd, " x\rX-" + marker + ": 1");
                return "bare CR in the reason phrase";
            }
            case 9 -> {
                String[] codings = {"chunked, gzip", "gzip, chunked", "identity", "chunked, chunked", "gzip"};
                w.append("Transfer-Encoding: ").append(codings[r.nextInt(codings.length)]).append(eol);
                return "transfer coding other than a single chunked";
            }
            case 10 -> {
                w.append("Content-Length: ").append(marker.length() + 1 + r.nextInt(5)).append(eol);
                return "conflicting Content-Length";
            }
            case 11 -> {
                replaceStatus(w, "101");
                w.append("Upgrade: ").append(marker).append(eol).append("Connection: Upgrade").append(eol);
                return "unasked 101";
            }
            default -> {
                for (int i = 0; i < 257; i++) {
                    w.append("X-Many-").append(i).append(": ").append(marker).append(eol);
                }
                return "more than 256 fields";
            }
        }
    }

    /** Replaces the final status line's code. */
    private static void replaceStatus(StringBuilder w, String code) {
        int at = w.lastIndexOf("HTTP/1.1 ") + 9;
        w.replace(at, at + 3, code);
    }
}
