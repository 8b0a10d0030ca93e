/**
 * The transcoder: a pure library (no server types) that converts between the OpenAI Responses,
 * Anthropic Messages and Chat Completions dialects through one canonical IR
 * ({@code shaper.transcode.ir}).
 *
 * <pre>
 * client body ─strict decode─▶ Conversation ─render─▶ upstream body        ({@link shaper.transcode.Transcoder#prepare})
 * upstream JSON ─tolerant decode─▶ Completion ─render─▶ client JSON        ({@link shaper.transcode.Transcoder#answer})
 * upstream SSE ─frames─▶ StreamEvent* ─lifecycle state machine─▶ client SSE ({@link shaper.transcode.Transcoder#stream})
 * upstream error ─▶ UpstreamError ─▶ client-dialect error, status kept     ({@link shaper.transcode.Transcoder#error})
 * </pre>
 *
 * <p>Strictness follows the contract role: the client request and every content union are strict
 * (an unknown field or block type is a 400); the upstream envelope is tolerant (unknown provider
 * fields are skipped, never forwarded). Every non-portable feature is a {@link shaper.transcode.LossKey}
 * decided by the mapping's {@link shaper.transcode.LossPolicy} and recorded in the exchange's
 * {@link shaper.transcode.ConversionReport}.
 *
 * <p>Failures are typed ({@link shaper.transcode.TranscodeException}): malformed client input and
 * rejected losses are local 400s that never count against the upstream; a body or stream that
 * breaks the wire contract is an upstream failure (502, breaker-counted); model output the client
 * dialect cannot carry is local. {@link shaper.transcode.Provenance} names the outcome.
 *
 * <p>Memory: request and non-streaming answers are bounded by {@link shaper.transcode.TranscodeLimits};
 * a stream holds at most one SSE frame and the bounded held state of its parts.
 * Thread-safety: transcoders and mappings are immutable and shared; per-exchange objects are confined.
 */
package shaper.transcode;
