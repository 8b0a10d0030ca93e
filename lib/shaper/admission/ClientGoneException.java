package shaper.admission;

/** The client disconnected before its request reached the upstream. An expected outcome: no stack trace. */
public final class ClientGoneException extends Exception {
    public ClientGoneException(String message) {
        super(message, null, false, false);
    }
}
