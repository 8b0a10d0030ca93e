package shaper.proxy;

import java.io.IOException;
import java.io.InputStream;

import shaper.proxy.client.UpstreamResponse;
import shaper.sse.InspectorVerdict;

/**
 * {@code -inspect-sse}: the start of a 2xx event stream, decoded if compressed, read until the
 * early-error inspector decides, so that an error the upstream sent under 200 can be retried before
 * the client has seen a byte. The bytes read are replayed first by the relay plan either way.
 *
 * @param plan        how to relay the answer if it is accepted: the read bytes, then the rest; status
 *                    502 when it carries a hidden error (what the client gets once retries run out)
 * @param hiddenError a recognized {@code error} / {@code response.failed} frame came before any output
 */
record SsePeek(ResponseRelay.Plan plan, boolean hiddenError) {

    /** Whether {@code in} is an answer to inspect: an event stream in a coding decoded here. */
    static boolean applies(UpstreamResponse in, String encoding) {
        return BodyPeek.isEventStream(in) && BodyPeek.decodable(encoding);
    }

    /** Reads the stream's start; call only when {@link #applies}. */
    static SsePeek of(UpstreamResponse in, String encoding) throws IOException {
        InputStream decoded = BodyPeek.decode(in.inputStream(), encoding);
        if (decoded != in.inputStream()) {
            in.closeWith(decoded);
        }
        boolean wasDecoded = encoding != null && !encoding.isBlank() && !encoding.equalsIgnoreCase("identity");
        return switch (BodyPeek.inspect(decoded)) {
            case InspectorVerdict.Retry hidden ->
                    new SsePeek(new ResponseRelay.Plan(hidden.buffered(), decoded, wasDecoded, 502, null, null), true);
            case InspectorVerdict.Forward forward ->
                    new SsePeek(new ResponseRelay.Plan(forward.buffered(), decoded, wasDecoded, 0, null, null), false);
            // inspect() reads to a decision (the end of the stream decides too)
            case InspectorVerdict.Undecided undecided -> new SsePeek(ResponseRelay.Plan.asIs(in), false);
        };
    }
}
