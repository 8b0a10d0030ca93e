/**
 * Path-prefix mounts: which provider a request path belongs to, and the path it is forwarded with.
 *
 * <pre>
 *   raw path ──► dot segments resolved ──► the one prefix whose whole segments lead the path
 *            (RequestPaths)                 (MountRouter)
 *                                  ──► the rest of the resolved raw path goes upstream
 * </pre>
 *
 * <p>Rules: a prefix is a true mount ({@code /anthropic/v1/messages} forwards as {@code /v1/messages},
 * {@code /anthropic} as {@code /}); it matches whole segments only, so {@code /anthropic2} never
 * matches {@code /anthropic}; {@code .} and {@code ..} segments (also spelled {@code %2E}) are
 * resolved before matching, so {@code /openai/../anthropic/v1} belongs to {@code /anthropic} and a
 * path can never climb out of its mount. Everything else in the forwarded path (empty segments,
 * {@code %2F}, any other escape) is kept byte for byte. Segments compare after decoding escapes of
 * unreserved characters (RFC 3986 §6.2.2.2), so {@code /%61nthropic} is {@code /anthropic}.
 * Prefixes never overlap (checked at startup), so at most one mount matches a path.
 *
 * <p>Everything here is immutable and thread-safe.
 */
package shaper.mount;
