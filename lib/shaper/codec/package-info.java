/**
 * Request-body content codings (RFC 9110 §8.4), decoded only where the proxy reads a body; the
 * listener never decodes, so a forwarded body keeps its bytes, its {@code Content-Encoding} and its
 * framing.
 *
 * <pre>
 *   Content-Encoding lines ──► ContentCodings.parse ──► tokens in the order they were applied
 *   raw body ──► BodyDecoder (last applied coding undone first) ──► decoded bytes, at most the limit
 *                                                            └──► CodingException: TooLarge | Corrupt | Unsupported
 * </pre>
 *
 * <p>Supported: {@code gzip} and its alias {@code x-gzip} and {@code deflate} (zlib-wrapped or
 * raw) with {@code java.util.zip}; {@code br} with Google's pure-Java decoder ({@code org.brotli:dec});
 * {@code zstd} with {@code zstd-jni}, its window bounded to RFC 9659's 8 MiB; {@code identity}
 * anywhere in the list is a no-op. Every other token is unsupported. The decoded size is bounded by
 * the caller's limit while decoding, so a decompression bomb costs at most the limit in memory and
 * the time to produce it. Stateless and thread-safe.
 */
package shaper.codec;
