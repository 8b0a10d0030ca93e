package shaper.proxy;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import shaper.codec.BodyDecoder;
import shaper.codec.CodingException;
import shaper.codec.ContentCodings;

/**
 * The bytes a token budget estimates a request's cost from: the body as the model will read it, so
 * a coded body is decoded first (bounded by what the body itself may be, {@code -retry-max-body-mb}).
 * A body the proxy cannot decode is estimated by its raw bytes; the upstream decides whether it
 * accepts it, and the reconciliation at the end corrects the estimate either way.
 */
final class BudgetBody {
    private BudgetBody() {
    }

    /** The decoded bytes, the raw ones when not coded or not decodable, or null when the body was too large to buffer. */
    static byte[] decoded(ServerRequest req, RequestBody body) {
        byte[] raw = body.bytes();
        ContentCodings codings = ContentCodings.parse(req.headers().values(HeaderNames.CONTENT_ENCODING));
        if (raw == null || codings.isIdentity()) {
            return raw;
        }
        try {
            return BodyDecoder.decode(raw, codings, Math.max(raw.length, WaitingRequest.BUFFER_LIMIT));
        } catch (CodingException undecodable) {
            return raw;
        }
    }
}
