package shaper.sse;

import java.io.ByteArrayOutputStream;
import java.util.Optional;
import java.util.Set;

import shaper.retry.ErrorSignal;
import shaper.retry.ErrorWording;

/**
 * Looks at the first frames of an HTTP 200 {@code text/event-stream} body for an error the upstream hid
 * under a success status, before any byte reaches the client.
 *
 * <pre>
 *   feed(chunk) ──► frames in order, within the first {@link #DEFAULT_LIMIT} bytes:
 *      comment-only / preamble event ─► keep reading
 *      error | response.failed, recognized wording ─► Retry(buffered, message, type)
 *      error | response.failed, other wording      ─► Forward(buffered, UNRECOGNIZED_ERROR)
 *      anything else (deltas, content, unknown)     ─► Forward(buffered, OUTPUT_STARTED)
 *   limit passed ─► Forward(LIMIT_REACHED)     finish() at EOF ─► last open frame judged, else END_OF_STREAM
 * </pre>
 *
 * A frame's type is its {@code event:} name, else the {@code type} member of its JSON data (bridges that
 * send data-only frames); a data-only object with an {@code error} member (Chat Completions) is an error
 * frame. Frames after the deciding one are not judged, so an error after output started is never
 * retried even when it shares a chunk. Not thread-safe: one inspector per attempt.
 */
public final class EarlyErrorInspector {
    /** Bytes of the stream inspected at most. */
    public static final int DEFAULT_LIMIT = 64 * 1024;

    /**
     * Lifecycle events that precede output and carry no content: Anthropic Messages {@code message_start}
     * and {@code ping}; OpenAI Responses {@code response.created}, {@code response.queued} and
     * {@code response.in_progress}. Comment-only frames are skipped as well.
     */
    public static final Set<String> PREAMBLE_EVENTS = Set.of(
            "message_start", "ping", "response.created", "response.queued", "response.in_progress");

    /** Frame types that report a failure. */
    public static final Set<String> ERROR_EVENTS = Set.of("error", "response.failed");

    private static final InspectorVerdict UNDECIDED = new InspectorVerdict.Undecided();

    private final int limit;
    private final SseFrameParser parser = new SseFrameParser();
    private final ByteArrayOutputStream buffered = new ByteArrayOutputStream();
    private boolean decided;

    public EarlyErrorInspector() {
        this(DEFAULT_LIMIT);
    }

    /** @param limit bytes inspected at most; &gt; 0 */
    public EarlyErrorInspector(int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit: " + limit + " (expected: > 0)");
        }
        this.limit = limit;
    }

    /** Feeds all of {@code chunk}. */
    public InspectorVerdict feed(byte[] chunk) {
        return feed(chunk, 0, chunk.length);
    }

    /**
     * Feeds the next {@code len} bytes of the body. Returns {@link InspectorVerdict.Undecided} until a
     * verdict is reached; afterwards the inspector must not be fed again.
     */
    public InspectorVerdict feed(byte[] chunk, int off, int len) {
        if (decided) {
            throw new IllegalStateException("inspector already decided; forward the rest of the stream directly");
        }
        buffered.write(chunk, off, len);
        int room = (int) Math.max(0, limit - parser.consumedBytes());
        for (SseFrame frame : parser.feed(chunk, off, Math.min(len, room))) {
            Optional<InspectorVerdict> verdict = judge(frame);
            if (verdict.isPresent()) {
                return decide(verdict.get());
            }
        }
        if (parser.consumedBytes() >= limit) {
            return decide(forward(InspectorVerdict.Forward.Reason.LIMIT_REACHED));
        }
        return UNDECIDED;
    }

    /** At end of the upstream body: judges a frame left open by the close, else forwards what was read. */
    public InspectorVerdict finish() {
        if (decided) {
            throw new IllegalStateException("inspector already decided");
        }
        Optional<InspectorVerdict> verdict = parser.finish().flatMap(this::judge);
        return decide(verdict.orElseGet(() -> forward(InspectorVerdict.Forward.Reason.END_OF_STREAM)));
    }

    private Optional<InspectorVerdict> judge(SseFrame frame) {
        if (frame.isCommentOnly()) {
            return Optional.empty();
        }
        EarlyError.Parsed data = EarlyError.parse(frame.data());
        String type = frame.event() != null && !frame.event().isEmpty() ? frame.event() : data.type();
        if (type != null && PREAMBLE_EVENTS.contains(type)) {
            return Optional.empty();
        }
        boolean error = type != null ? ERROR_EVENTS.contains(type) : data.hasErrorMember();
        if (!error) {
            return Optional.of(forward(InspectorVerdict.Forward.Reason.OUTPUT_STARTED));
        }
        if (ErrorWording.scan(frame.data()) != ErrorSignal.RATE_LIMIT_OR_TRANSIENT) {
            return Optional.of(forward(InspectorVerdict.Forward.Reason.UNRECOGNIZED_ERROR));
        }
        return Optional.of(new InspectorVerdict.Retry(buffered.toByteArray(), type != null ? type : "error",
                data.message(), data.errorType()));
    }

    private InspectorVerdict forward(InspectorVerdict.Forward.Reason reason) {
        return new InspectorVerdict.Forward(buffered.toByteArray(), reason);
    }

    private InspectorVerdict decide(InspectorVerdict verdict) {
        decided = true;
        return verdict;
    }
}
