package shaper.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import shaper.testing.Codings;

/** Decoding request bodies: every supported coding, lists in order, and the three refusals. */
class BodyDecoderTest {
    private static final byte[] PLAIN = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"héllo\"}]}"
            .repeat(40).getBytes(StandardCharsets.UTF_8);

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "x-gzip", "deflate", "br", "zstd"})
    void everySupportedCodingDecodes(String token) throws Exception {
        byte[] coded = Codings.encode(token, PLAIN);
        assertArrayEquals(PLAIN, BodyDecoder.decode(coded, codings(token), 1 << 20));
        assertArrayEquals(PLAIN, BodyDecoder.decode(coded, codings(token.toUpperCase()), 1 << 20), "tokens are case-insensitive");
    }

    @Test
    void deflateAcceptsZlibWrappedAndRaw() throws Exception {
        assertArrayEquals(PLAIN, BodyDecoder.decode(Codings.deflate(PLAIN, false), codings("deflate"), 1 << 20));
        assertArrayEquals(PLAIN, BodyDecoder.decode(Codings.deflate(PLAIN, true), codings("deflate"), 1 << 20));
    }

    @Test
    void aListIsUndoneLastAppliedFirst() throws Exception {
        byte[] coded = Codings.zstd(Codings.gzip(PLAIN)); // gzip applied first, then zstd
        assertArrayEquals(PLAIN, BodyDecoder.decode(coded, ContentCodings.parse(List.of("gzip, zstd")), 1 << 20));
        assertArrayEquals(PLAIN, BodyDecoder.decode(coded, ContentCodings.parse(List.of("gzip", "identity", "zstd")), 1 << 20),
                "several field lines join in order; identity is a no-op");
        assertThrows(CodingException.Corrupt.class, () -> BodyDecoder.decode(coded, ContentCodings.parse(List.of("zstd, gzip")), 1 << 20));
    }

    @Test
    void identityAndAbsentHeaderLeaveTheBody() throws Exception {
        assertTrue(ContentCodings.parse(List.of()).isIdentity());
        assertTrue(ContentCodings.parse(List.of(" identity ", "")).isIdentity());
        assertArrayEquals(PLAIN, BodyDecoder.decode(PLAIN, ContentCodings.IDENTITY, PLAIN.length));
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "deflate", "br", "zstd"})
    void aBombStopsAtTheLimit(String token) {
        byte[] bomb = Codings.encode(token, Codings.zeros(64 << 20)); // 64 MiB of zeros, a few KiB coded
        assertTrue(bomb.length < 256 * 1024, token + " bomb is small: " + bomb.length);
        long before = usedHeap();
        CodingException.TooLarge e = assertThrows(CodingException.TooLarge.class, () -> BodyDecoder.decode(bomb, codings(token), 1 << 20));
        assertEquals(413, e.status());
        assertTrue(usedHeap() - before < 48L << 20, "decoding stopped near the 1 MiB limit, not at 64 MiB");
        assertThrows(CodingException.TooLarge.class, () -> BodyDecoder.decode(PLAIN, ContentCodings.IDENTITY, 10));
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "deflate", "br", "zstd"})
    void truncatedOrGarbledDataIsCorrupt(String token) {
        byte[] coded = Codings.encode(token, PLAIN);
        byte[] truncated = Arrays.copyOf(coded, coded.length / 2);
        CodingException.Corrupt e = assertThrows(CodingException.Corrupt.class, () -> BodyDecoder.decode(truncated, codings(token), 1 << 20));
        assertEquals(400, e.status());
        byte[] garbage = "this is not compressed at all, just text".getBytes(StandardCharsets.US_ASCII);
        assertThrows(CodingException.Corrupt.class, () -> BodyDecoder.decode(garbage, codings(token), 1 << 20));
    }

    @Test
    void anUnknownCodingIsUnsupportedBeforeAnyDecoding() {
        byte[] coded = Codings.gzip(PLAIN);
        CodingException.Unsupported e = assertThrows(CodingException.Unsupported.class,
                () -> BodyDecoder.decode(coded, ContentCodings.parse(List.of("gzip, compress")), 1 << 20));
        assertEquals(415, e.status());
        assertTrue(e.getMessage().contains("\"compress\""), e.getMessage());
        assertThrows(CodingException.Unsupported.class, () -> BodyDecoder.decode(coded, codings("x-snappy-framed"), 1 << 20));
    }

    @Test
    void theLengthCountStopsAtItsCap() throws Exception {
        byte[] bomb = Codings.zstd(Codings.zeros(64 << 20));
        assertEquals(1000, BodyDecoder.decodedLength(bomb, codings("zstd"), 1000));
        assertEquals(PLAIN.length, BodyDecoder.decodedLength(Codings.gzip(PLAIN), codings("gzip"), Long.MAX_VALUE));
        assertEquals(10, BodyDecoder.decodedLength(PLAIN, ContentCodings.IDENTITY, 10));
    }

    private static ContentCodings codings(String header) {
        return ContentCodings.parse(List.of(header));
    }

    private static long usedHeap() {
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }
}
