/**
 * The OpenAI Chat Completions dialect, as an upstream: the request renderer
 * ({@link shaper.transcode.chat.ChatRequestRenderer}), the tolerant answer decoder
 * ({@link shaper.transcode.chat.ChatResponseDecoder}), the chunk decoder of its SSE stream
 * ({@link shaper.transcode.chat.ChatStreamDecoder}) and usage ({@link shaper.transcode.chat.ChatUsage}).
 * Unknown provider fields in the envelope are skipped and never forwarded; content unions and the
 * types of known members are strict, and a violation is an upstream wire failure.
 */
package shaper.transcode.chat;
