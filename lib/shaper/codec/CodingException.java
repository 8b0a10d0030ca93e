package shaper.codec;

/**
 * Why a coded body could not be decoded; the type, never the message, decides the client's
 * status: {@link TooLarge} 413, {@link Corrupt} 400, {@link Unsupported} 415. Messages name the
 * coding, never body bytes.
 */
public abstract sealed class CodingException extends Exception {
    private final int status;

    private CodingException(String message, int status) {
        super(message, null, false, false);
        this.status = status;
    }

    /** The HTTP status a client is answered with when the proxy must read this body. */
    public final int status() {
        return status;
    }

    /** The decoded body would exceed the path's limit (a decompression bomb, or just too big). */
    public static final class TooLarge extends CodingException {
        public TooLarge(long limit) {
            super("decoded request body exceeds " + limit + " bytes", 413);
        }
    }

    /** The bytes are not a valid stream of the coding the header names (truncated, wrong format, bad checksum). */
    public static final class Corrupt extends CodingException {
        public Corrupt(String coding) {
            super("request body is not valid " + coding + " data", 400);
        }
    }

    /** A coding this proxy does not decode (RFC 9110 §15.5.16: 415 names what is supported). */
    public static final class Unsupported extends CodingException {
        public Unsupported(String coding) {
            super("unsupported Content-Encoding \"" + printable(coding) + "\" (supported: gzip, x-gzip, deflate, br, zstd, identity)", 415);
        }
    }

    /** A client-sent token as a message may carry it: visible ASCII only, at most 40 characters. */
    private static String printable(String token) {
        String visible = token.replaceAll("[^\\x21-\\x7E]", "?").replace("\"", "?");
        return visible.length() > 40 ? visible.substring(0, 40) + "..." : visible;
    }
}
