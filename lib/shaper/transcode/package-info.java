/**
 * What every conversion between the OpenAI Responses, Anthropic Messages and Chat Completions
 * dialects shares: what a provider transcodes ({@link shaper.transcode.TranscodeConfig}: its mapped
 * routes and their target auth; each {@link shaper.transcode.TranscodeMapping} a route and direction,
 * chat capabilities, loss policy, allowed query, models and {@link shaper.transcode.TranscodeLimits}),
 * what a conversion may lose and did ({@link shaper.transcode.LossKey}, {@link shaper.transcode.LossPolicy},
 * {@link shaper.transcode.ConversionReport}), how it fails ({@link shaper.transcode.TranscodeException},
 * {@link shaper.transcode.UpstreamError}, {@link shaper.transcode.Provenance}), and the parts each
 * dialect is written against (JSON field access, usage totals, the stream decoder and renderer
 * contracts).
 *
 * <p>The transcoder is layered so that no package imports one above it:
 * <pre>
 * shaper.transcode.pipeline          pairs a client dialect with an upstream dialect, per direction
 *            │
 * chat · messages · responses        one package per dialect; messages and responses reuse chat's
 *            │                        tool-argument and tool-error conventions
 * shaper.transcode                   this package: mapping, losses, failures, dialect contracts
 *            │
 * shaper.transcode.ir                the canonical IR every direction converts through
 * </pre>
 * A type that two dialects need lives here or in the IR, never in one of them, and nothing here
 * names a dialect: choosing one is the pipeline's job.
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
 * Thread-safety: mappings and policies are immutable and shared; per-exchange objects (the report,
 * stream renderers and decoders) are confined to their exchange.
 */
package shaper.transcode;
