package shaper.proxy;

import io.helidon.webserver.http.ServerRequest;
import shaper.codec.BodyDecoder;
import shaper.codec.CodingException;
import shaper.codec.ContentCodings;

/**
 * The body length the large-request gate judges ({@code -big-ctx-tokens}, bytes / 4). A plain
 * body is judged by its declared {@code Content-Length}, unread. A coded body stands for more
 * tokens than its bytes, so it is read ahead (at most the gate's threshold, and at most
 * {@link WaitingRequest#BUFFER_LIMIT}) and judged by its decoded size, counted without keeping the
 * decoded bytes and only up to the threshold: a bomb costs the threshold, never more. The body
 * read is handed on unchanged, so what is forwarded is still the client's bytes. A coded body the
 * proxy cannot decode (unknown coding, corrupt data) is judged by its bytes and forwarded as it
 * is: on a passthrough route the upstream decides what it accepts.
 *
 * @param body   the body to forward: the one given, or the same bytes read into memory
 * @param length the length to classify by; -1 when unknown
 */
record GateEstimate(RequestBody body, long length) {
    /**
     * @param threshold the gate's threshold in bytes ({@code 4 × -big-ctx-tokens}); {@link Long#MAX_VALUE} without a gate
     * @param codings   the request's {@code Content-Encoding}
     */
    static GateEstimate of(ServerRequest req, RequestBody body, long threshold, ContentCodings codings) {
        long declared = req.headers().contentLength().orElse(-1L);
        if (threshold == Long.MAX_VALUE || codings.isIdentity() || declared >= threshold || !(body instanceof RequestBody.Streamed)) {
            return new GateEstimate(body, declared);
        }
        RequestBody read;
        try {
            read = RequestBody.buffer(body, (int) Math.min(threshold, WaitingRequest.BUFFER_LIMIT));
        } catch (StreamCopy.SourceFailed clientLeft) {
            return new GateEstimate(body, declared); // the next read of the body meets the same end
        }
        byte[] bytes = read.bytes();
        if (bytes == null) {
            // more bytes than the read-ahead: large when that was the whole threshold
            return new GateEstimate(read, threshold <= WaitingRequest.BUFFER_LIMIT ? threshold : declared);
        }
        try {
            return new GateEstimate(read, BodyDecoder.decodedLength(bytes, codings, threshold));
        } catch (CodingException undecodable) {
            return new GateEstimate(read, bytes.length);
        }
    }
}
