/**
 * Server-sent events on the response path.
 *
 * <p>{@link shaper.sse.SseFrameParser} turns bytes into {@link shaper.sse.SseFrame}s incrementally, for any
 * line ending and any chunking. {@link shaper.sse.EarlyErrorInspector} holds back the first bytes (at most
 * 64 KiB) of an HTTP 200 event stream and returns one {@link shaper.sse.InspectorVerdict}: forward (replay
 * the buffered bytes unchanged, then stream the rest) or retry (a recognized {@code error} /
 * {@code response.failed} before any output; nothing was sent). What counts as recognized wording is
 * {@link shaper.retry.ErrorWording}'s, shared with the HTTP-status retry rules.
 *
 * <p>Both classes keep per-stream state and are not thread-safe: one instance per upstream attempt, driven
 * by the thread that reads that attempt's body. {@link shaper.sse.SseFrame} is immutable.
 */
package shaper.sse;
