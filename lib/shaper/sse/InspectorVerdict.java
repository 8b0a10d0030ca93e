package shaper.sse;

import java.util.Objects;

/** What {@link EarlyErrorInspector} concluded about the start of an HTTP 200 event stream. */
public sealed interface InspectorVerdict {

    /** Nothing decided yet: feed more bytes (or call {@code finish()} at end of stream). */
    record Undecided() implements InspectorVerdict {
    }

    /**
     * Forward the stream: write {@code buffered} unchanged, then keep copying the rest of the upstream body.
     *
     * @param buffered every byte fed so far, to replay first
     * @param reason   why inspection stopped
     */
    record Forward(byte[] buffered, Reason reason) implements InspectorVerdict {
        public Forward {
            Objects.requireNonNull(buffered, "buffered");
            Objects.requireNonNull(reason, "reason");
        }

        /** Why the stream is forwarded. */
        public enum Reason {
            /** A frame that is neither preamble nor error: output (or something unfamiliar) has started. */
            OUTPUT_STARTED,
            /** An early error whose wording is not a recognized rate-limit/transient failure; passed through. */
            UNRECOGNIZED_ERROR,
            /** The inspection limit passed without a decision. */
            LIMIT_REACHED,
            /** The upstream body ended during the preamble. */
            END_OF_STREAM
        }
    }

    /**
     * A recognized early {@code error} / {@code response.failed}: the attempt failed under HTTP 200 and may
     * be retried (the retry policy decides with the budget). Nothing has been sent to the client.
     *
     * @param buffered  every byte fed so far; the body of a 502 when retries are exhausted for a
     *                  non-streaming request
     * @param frameType {@code error} or {@code response.failed}
     * @param message   the upstream error message (bounded), never null
     * @param errorType the upstream error type or code ({@code overloaded_error}, {@code rate_limit_exceeded}),
     *                  or null when the frame had none
     */
    record Retry(byte[] buffered, String frameType, String message, String errorType) implements InspectorVerdict {
        public Retry {
            Objects.requireNonNull(buffered, "buffered");
            Objects.requireNonNull(frameType, "frameType");
            Objects.requireNonNull(message, "message");
        }
    }
}
