package shaper.proxy;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import shaper.codec.BodyDecoder;
import shaper.codec.CodingException;
import shaper.codec.ContentCodings;

/** Reads the top-level {@code "stream"} member of a JSON request body without building a tree. */
final class StreamFlag {
    private static final JsonFactory JSON = new JsonFactory();

    private StreamFlag() {
    }

    /** Decoded bytes looked at for the flag at most: a peek, not a conversion (the queue's check decodes as far, see {@link RequestCoding}). */
    static final long CODED_PEEK_LIMIT = 16L * 1024 * 1024;

    /** As {@link #isTrue(byte[])} for a body in {@code codings}; false when it cannot be decoded. */
    static boolean isTrue(byte[] body, ContentCodings codings) {
        byte[] plain = plain(body, codings);
        return plain != null && isTrue(plain);
    }

    private static byte[] plain(byte[] body, ContentCodings codings) {
        try {
            return body == null ? null : BodyDecoder.decode(body, codings, codings.isIdentity() ? Long.MAX_VALUE : CODED_PEEK_LIMIT);
        } catch (CodingException undecodable) {
            return null;
        }
    }

    /** True only for a JSON object whose top-level {@code stream} is literally {@code false}. */
    static boolean isExplicitlyFalse(byte[] body) {
        return value(body) == JsonToken.VALUE_FALSE;
    }

    /** True only for a JSON object whose top-level {@code stream} is literally {@code true}. */
    static boolean isTrue(byte[] body) {
        return value(body) == JsonToken.VALUE_TRUE;
    }

    private static JsonToken value(byte[] body) {
        try (JsonParser p = JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                if ("stream".equals(name)) {
                    return v;
                }
                p.skipChildren();
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }
}
