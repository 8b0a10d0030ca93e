package shaper.proxy;

/**
 * A relay (passthrough or converted) broke after its answer was committed: the client left
 * ({@link StreamCopy.SinkFailed}) or the upstream did ({@link StreamCopy.SourceFailed}). Carries the
 * exchange as it stood, so the attempt loop can end it without any stage writing shared state.
 * An expected outcome: no stack trace.
 */
final class RelayBroke extends RuntimeException {
    private final ExchangeResult result;

    private RelayBroke(ExchangeResult result, RuntimeException cause) {
        super(cause.getMessage(), cause, false, false);
        this.result = result;
    }

    /** Runs a write of an answer already committed as {@code result}, turning a copy failure into a {@code RelayBroke}. */
    static void guard(ExchangeResult result, Runnable write) {
        try {
            write.run();
        } catch (StreamCopy.SinkFailed | StreamCopy.SourceFailed e) {
            throw new RelayBroke(result, e);
        }
    }

    ExchangeResult result() {
        return result;
    }

    /** True when the client side failed (it left or stopped reading). */
    boolean clientSide() {
        return getCause() instanceof StreamCopy.SinkFailed;
    }
}
