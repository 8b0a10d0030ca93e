package shaper.transcode;

/**
 * A conversion that cannot go on, typed by who is at fault; the type, never the message, decides
 * the status, the breaker and retry handling ({@link #upstreamFailure()}). Messages are bounded
 * ({@link ErrorText#bound}) and never carry a secret or an upstream HTML page.
 */
public abstract sealed class TranscodeException extends RuntimeException {
    private final int status;

    private TranscodeException(String message, int status) {
        super(ErrorText.bound(message), null, false, false);
        this.status = status;
    }

    /** The HTTP status the client sees. */
    public final int status() {
        return status;
    }

    /**
     * What the operator can change to make this request pass (a flag and its value), for the log
     * line; empty when no setting would. The client's message stays the documented one.
     */
    public String hint() {
        return "";
    }

    /** Whether the upstream is to blame: counted by the circuit breaker and the failure hold. */
    public final boolean upstreamFailure() {
        return this instanceof UpstreamWire;
    }

    /** A malformed client request: an unknown field or block type, a wrong type, a missing member. */
    public static final class Invalid extends TranscodeException {
        public Invalid(String message) {
            super(message, 400);
        }
    }

    /** A valid client feature the policy does not let the conversion lose. */
    public static final class Unsupported extends TranscodeException {
        private final LossKey key;

        public Unsupported(String path, LossKey key) {
            super("transcode field " + path + " uses unsupported feature \"" + key.wireName() + "\"", 400);
            this.key = key;
        }

        public LossKey key() {
            return key;
        }

        /** Names the flag that accepts the loss, and the chat capability that avoids it when there is one. */
        @Override
        public String hint() {
            String name = key.wireName();
            for (ChatCapability c : ChatCapability.values()) {
                if (c.wireName().equals(name)) {
                    return "enable it with -transcode-chat-capability " + name + " if the upstream supports it,"
                            + " or accept the loss with -transcode-allow-loss " + name;
                }
            }
            return "accept the loss with -transcode-allow-loss " + name;
        }
    }

    /** A request or upstream body over its {@code -transcode-max-*-mb} bound. */
    public static final class TooLarge extends TranscodeException {
        private final long limitBytes;

        /** @param limitBytes the bound that was exceeded ({@code -transcode-max-request-mb}) */
        public TooLarge(long limitBytes) {
            super("request body too large", 413);
            this.limitBytes = limitBytes;
        }

        @Override
        public String hint() {
            return "the limit is " + Math.max(1, limitBytes / (1024 * 1024)) + " MiB; raise it with -transcode-max-request-mb";
        }
    }

    /**
     * A request body in a content coding the proxy cannot undo (RFC 9110 §15.5.16); the message
     * lists the supported ones. Corrupt data is {@link Invalid}, a bomb {@link TooLarge}.
     */
    public static final class UnsupportedEncoding extends TranscodeException {
        public UnsupportedEncoding(String message) {
            super(message, 415);
        }
    }

    /** The upstream broke the wire contract: malformed body or frame, a negotiation mismatch, bad usage totals. */
    public static final class UpstreamWire extends TranscodeException {
        public UpstreamWire(String message) {
            super(message, 502);
        }
    }

    /** Well-formed upstream output the client dialect cannot carry (tool arguments that are not an object). */
    public static final class Unrepresentable extends TranscodeException {
        public Unrepresentable(String message) {
            super(message, 502);
        }
    }
}
