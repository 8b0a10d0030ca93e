package shaper.proxy;

import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import shaper.codec.BodyDecoder;
import shaper.codec.CodingException;
import shaper.codec.ContentCodings;

/**
 * One request's {@code Content-Encoding}, parsed once, and its body as the model reads it, decoded
 * at most once, when first asked: the large-request gate, the token budget, the queue's stream
 * check and the usage accounting all look at the same request, and a coded body is not decompressed
 * for each. The plain bytes are kept for the body they were decoded from (the same array); another
 * body (a rewrite) is decoded afresh. Belongs to the request's thread.
 */
final class RequestCoding {
    private final ContentCodings codings;
    private byte[] raw;
    private byte[] plain;
    /** The largest limit {@code raw} was found too large for; 0 when none was. */
    private long tooLargeFor;
    private boolean undecodable;

    private RequestCoding(ContentCodings codings) {
        this.codings = codings;
    }

    static RequestCoding of(Headers headers) {
        return new RequestCoding(codingsOf(headers));
    }

    /** The request's {@code Content-Encoding}; a request without one (nearly all) costs one lookup, not a parse. */
    static ContentCodings codingsOf(Headers headers) {
        return headers.contains(HeaderNames.CONTENT_ENCODING)
                ? ContentCodings.parse(headers.values(HeaderNames.CONTENT_ENCODING)) : ContentCodings.IDENTITY;
    }

    ContentCodings codings() {
        return codings;
    }

    /**
     * {@code body} decoded: the same array when it is not coded, null when it is null, cannot be
     * decoded (an unknown coding, corrupt data) or decodes to more than {@code limit} bytes.
     */
    byte[] plain(byte[] body, long limit) {
        if (body == null || codings.isIdentity()) {
            return body;
        }
        if (body != raw) {
            raw = body;
            plain = null;
            tooLargeFor = 0;
            undecodable = false;
        }
        if (plain != null) {
            return plain.length <= limit ? plain : null;
        }
        if (undecodable || limit <= tooLargeFor) {
            return null;
        }
        try {
            plain = BodyDecoder.decode(body, codings, limit);
            return plain;
        } catch (CodingException.TooLarge e) {
            tooLargeFor = limit;
            return null;
        } catch (CodingException e) {
            undecodable = true;
            return null;
        }
    }

    /**
     * The bytes a token budget estimates the request's cost from: the body as the model will read it
     * (decoded within what the body itself may be, the buffer bound), or the raw bytes when it is not
     * coded or cannot be decoded (the reconciliation at the end corrects the estimate either way);
     * null when the body was too large to buffer.
     */
    byte[] forBudget(RequestBody body) {
        byte[] raw = body.bytes();
        byte[] decoded = forUsage(raw);
        return decoded != null ? decoded : raw;
    }

    /**
     * For the usage accounting: the bytes decoded, or null when there are none or they cannot be
     * decoded (coded bytes name no model and say nothing of the input's size).
     */
    byte[] forUsage(byte[] raw) {
        return raw == null ? null : plain(raw, Math.max(raw.length, AdmissionStage.BUFFER_LIMIT));
    }
}
