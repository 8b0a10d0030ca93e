package shaper.proxy;

import java.util.Optional;

import shaper.codec.BodyDecoder;
import shaper.codec.CodingException;
import shaper.codec.ContentCodings;
import shaper.retry.StaleReasoning;

/**
 * The replay body of stale-reasoning recovery: the request with its reasoning carriers removed
 * ({@link StaleReasoning#stripCarriers}). A coded body is decoded first, within
 * {@code -retry-max-body-mb}, and the rewritten body is sent uncompressed: the caller drops
 * {@code Content-Encoding} and the length is the new body's. Re-encoding in the client's coding
 * would need an encoder for every coding the proxy reads (none for brotli here) and buys nothing
 * on a one-off replay. A body that cannot be decoded (over the bound, corrupt, an unknown coding)
 * has nothing the proxy can strip: the upstream's 400 goes to the client, as for a body without
 * carriers.
 */
final class StaleBody {
    private StaleBody() {
    }

    /** The stripped body, or empty when there is nothing to strip (or nothing readable). */
    static Optional<byte[]> strip(byte[] bytes, ContentCodings codings, long maxBodyBytes) {
        if (bytes == null) {
            return Optional.empty();
        }
        try {
            return StaleReasoning.stripCarriers(BodyDecoder.decode(bytes, codings, codings.isIdentity() ? Long.MAX_VALUE : maxBodyBytes));
        } catch (CodingException unreadable) {
            return Optional.empty();
        }
    }
}
