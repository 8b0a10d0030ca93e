/**
 * The Anthropic Messages dialect, as a client: the strict request decoder
 * ({@link shaper.transcode.messages.MessagesRequestDecoder}, with its envelope controls in
 * {@code MessagesControls} and its content blocks in {@code MessagesBlocks}), the answer renderer
 * ({@link shaper.transcode.messages.MessagesResponseRenderer}), the streaming event lifecycle
 * ({@link shaper.transcode.messages.MessagesStreamRenderer}) and the error envelope
 * ({@link shaper.transcode.messages.MessagesErrors}). An unknown field or content-block type in a
 * client request is a 400 (the decoder knows the whole surface today's Claude Code sends, each
 * field mapped or decided under its loss key); a replayed thinking block carrying the proxy's
 * marker signature is scrubbed before any upstream rendering.
 */
package shaper.transcode.messages;
