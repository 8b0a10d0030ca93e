/**
 * The conversions themselves: a {@link shaper.transcode.pipeline.Transcoder} per direction pairs
 * the client dialect's half ({@code ClientSide}: Messages or Responses) with the upstream dialect's
 * half ({@code UpstreamSide}: Chat Completions or Responses), and neither half knows the other; the
 * IR is all they share. {@link shaper.transcode.pipeline.TranscodePolicies} turns a provider's
 * transcoding flags into checked mappings.
 *
 * <pre>
 * client body ─intake─▶ strict decode ─▶ Conversation ─render─▶ upstream body   ({@link shaper.transcode.pipeline.Transcoder#prepare})
 * upstream JSON ─tolerant decode─▶ Completion ─render─▶ client JSON            ({@link shaper.transcode.pipeline.Transcoder#answer})
 * upstream SSE ─frames─▶ StreamEvent* ─lifecycle state machine─▶ client SSE     ({@link shaper.transcode.pipeline.Transcoder#stream})
 * upstream error ─▶ UpstreamError ─▶ client-dialect error, status kept         ({@link shaper.transcode.pipeline.Transcoder#error})
 * </pre>
 *
 * <p>Intake (content codings undone, size bound, query allowlist) is the same for every direction
 * and fails locally. This is the only package that names dialects, so it sits above them: the
 * dialects and {@code shaper.transcode} never import it. A pure library (no server types):
 * transcoders are immutable and shared by request threads; a {@link shaper.transcode.pipeline.Prepared}
 * request and a {@link shaper.transcode.pipeline.StreamConversion} belong to one exchange and are
 * not thread-safe.
 */
package shaper.transcode.pipeline;
