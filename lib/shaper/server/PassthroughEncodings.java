package shaper.server;

import java.util.NoSuchElementException;

import io.helidon.http.Headers;
import io.helidon.http.encoding.ContentDecoder;
import io.helidon.http.encoding.ContentEncoder;
import io.helidon.http.encoding.ContentEncodingContext;
import io.helidon.http.encoding.ContentEncodingContextConfig;

/**
 * The listener's content-coding policy: decode nothing, refuse nothing, encode nothing. A proxy
 * forwards a request body with its {@code Content-Encoding} as received, so every coding, listed
 * ones, unknown ones, is "supported" here by handing the bytes on unchanged; decoding happens only
 * where the proxy reads a body ({@link shaper.codec.BodyDecoder}). Helidon otherwise answers an
 * empty {@code 400} itself to any coded request it has no decoder for, and without decoders
 * ("content encoding disabled") to every coded request. Responses are never encoded: upstream
 * bodies keep theirs.
 */
final class PassthroughEncodings implements ContentEncodingContext {
    private static final ContentEncodingContextConfig NONE = ContentEncodingContextConfig.builder()
            .contentEncodingsDiscoverServices(false).buildPrototype();

    @Override
    public boolean contentEncodingEnabled() {
        return false;
    }

    /** True so that Helidon asks {@link #decoder} instead of refusing coded requests. */
    @Override
    public boolean contentDecodingEnabled() {
        return true;
    }

    @Override
    public boolean contentEncodingSupported(String encodingId) {
        return false;
    }

    @Override
    public boolean contentDecodingSupported(String encodingId) {
        return true;
    }

    @Override
    public ContentEncoder encoder(String encodingId) throws NoSuchElementException {
        throw new NoSuchElementException("the proxy never encodes a response");
    }

    /** The body as it travelled: Helidon's request entity is the raw bytes. */
    @Override
    public ContentDecoder decoder(String encodingId) {
        return ContentDecoder.NO_OP;
    }

    @Override
    public ContentEncoder encoder(Headers headers) {
        return ContentEncoder.NO_OP;
    }

    @Override
    public ContentEncodingContextConfig prototype() {
        return NONE;
    }
}
