package shaper.budget;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Token estimates of images and PDFs from what their own bytes declare: an image's pixel size from
 * its header, a PDF's page count from its page objects.
 */
final class MediaSize {
    /** The long edge Anthropic scales larger images down to. */
    private static final int LONG_EDGE = 1568;
    private static final int PIXELS_PER_TOKEN = 750;
    /** PDFs are decoded up to this many bytes to count their pages; the pages past it are extrapolated. */
    private static final int PDF_SCAN = 32 * 1024 * 1024;

    private MediaSize() {
    }

    static long imageTokens(byte[] head) {
        int[] wh = dimensions(head);
        if (wh == null || wh[0] <= 0 || wh[1] <= 0) {
            return CostEstimator.IMAGE_TOKENS;
        }
        double w = wh[0];
        double h = wh[1];
        double scale = Math.min(1.0, LONG_EDGE / Math.max(w, h));
        long tokens = (long) Math.ceil(w * scale * h * scale / PIXELS_PER_TOKEN);
        return Math.max(1, Math.min(CostEstimator.IMAGE_TOKENS, tokens));
    }

    /** Width and height from a PNG, GIF, WebP (VP8X, VP8, VP8L) or JPEG header; null when unknown. */
    static int[] dimensions(byte[] b) {
        if (b.length >= 24 && (b[0] & 0xFF) == 0x89 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G') {
            return new int[] {int32(b, 16), int32(b, 20)};
        }
        if (b.length >= 10 && b[0] == 'G' && b[1] == 'I' && b[2] == 'F') {
            return new int[] {u16le(b, 6), u16le(b, 8)};
        }
        if (b.length >= 30 && b[0] == 'R' && b[1] == 'I' && b[2] == 'F' && b[3] == 'F' && b[8] == 'W' && b[9] == 'E') {
            String chunk = new String(b, 12, 4, StandardCharsets.US_ASCII);
            return switch (chunk) {
                case "VP8X" -> new int[] {1 + u24le(b, 24), 1 + u24le(b, 27)};
                case "VP8 " -> new int[] {u16le(b, 26) & 0x3FFF, u16le(b, 28) & 0x3FFF};
                case "VP8L" -> {
                    int bits = (b[21] & 0xFF) | (b[22] & 0xFF) << 8 | (b[23] & 0xFF) << 16 | (b[24] & 0xFF) << 24;
                    yield new int[] {1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)};
                }
                default -> null;
            };
        }
        if (b.length >= 4 && (b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xD8) {
            return jpeg(b);
        }
        return null;
    }

    /** Walks JPEG segments to the first start-of-frame marker. */
    private static int[] jpeg(byte[] b) {
        int i = 2;
        while (i + 9 < b.length) {
            if ((b[i] & 0xFF) != 0xFF) {
                return null;
            }
            int marker = b[i + 1] & 0xFF;
            if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
                return new int[] {u16be(b, i + 7), u16be(b, i + 5)};
            }
            i += 2 + u16be(b, i + 2);
        }
        return null;
    }

    static long pdfTokens(String base64) {
        String scan = base64.length() > PDF_SCAN / 3 * 4 ? base64.substring(0, PDF_SCAN / 3 * 4) : base64;
        byte[] pdf;
        try {
            pdf = Base64.getMimeDecoder().decode(scan);
        } catch (IllegalArgumentException e) {
            return CostEstimator.IMAGE_TOKENS;
        }
        long pages = countPages(pdf);
        if (scan.length() < base64.length()) {
            pages = (long) Math.ceil(pages * (double) base64.length() / scan.length());
        }
        return Math.max(1, pages) * CostEstimator.PDF_PAGE_TOKENS;
    }

    /** Occurrences of {@code /Type /Page} (not {@code /Pages}), the page objects of a PDF. */
    private static long countPages(byte[] pdf) {
        String text = new String(pdf, StandardCharsets.ISO_8859_1);
        long n = 0;
        int at = text.indexOf("/Type");
        while (at >= 0) {
            int i = at + 5;
            while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\n' || text.charAt(i) == '\r')) {
                i++;
            }
            if (text.startsWith("/Page", i) && !text.startsWith("/Pages", i)) {
                n++;
            }
            at = text.indexOf("/Type", at + 5);
        }
        return n;
    }

    private static int int32(byte[] b, int i) {
        return (b[i] & 0xFF) << 24 | (b[i + 1] & 0xFF) << 16 | (b[i + 2] & 0xFF) << 8 | (b[i + 3] & 0xFF);
    }

    private static int u16be(byte[] b, int i) {
        return (b[i] & 0xFF) << 8 | (b[i + 1] & 0xFF);
    }

    private static int u16le(byte[] b, int i) {
        return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8;
    }

    private static int u24le(byte[] b, int i) {
        return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16;
    }
}
