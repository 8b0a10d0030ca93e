/**
 * The OpenAI Responses dialect in both roles, because it is spoken on either side of the proxy. As a
 * client (a Responses client served by a Chat upstream): the strict request decoder
 * ({@link shaper.transcode.responses.ResponsesRequestDecoder}, input items and tools in
 * {@code ResponsesInput} and {@link shaper.transcode.responses.ResponsesTools}), the answer and
 * streaming renderers ({@link shaper.transcode.responses.ResponsesResponseRenderer},
 * {@link shaper.transcode.responses.ResponsesStreamRenderer}, sharing their objects through
 * {@code ResponsesShapes}) and the error envelope ({@link shaper.transcode.responses.ResponsesErrors}).
 * As an upstream (a Messages client served by a Responses upstream): the request renderer
 * ({@link shaper.transcode.responses.ResponsesRequestRenderer}) and the tolerant decoders of its
 * answer and stream ({@link shaper.transcode.responses.ResponsesResponseDecoder},
 * {@link shaper.transcode.responses.ResponsesStreamDecoder}, sharing {@code ResponsesOutput}).
 * {@link shaper.transcode.responses.ResponsesUsage} converts usage both ways without counting cached
 * tokens twice. Client requests are strict (an unknown member or item type is a 400; the
 * conversation-state controls are always refused, since a stateless upstream cannot honour them);
 * upstream answers are tolerant of unknown members and strict about content unions. Stateless and
 * thread-safe; per-stream renderers and decoders are confined to their exchange.
 */
package shaper.transcode.responses;
