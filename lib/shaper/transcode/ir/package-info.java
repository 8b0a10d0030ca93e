/**
 * The canonical intermediate representation every direction converts through: a request
 * ({@link shaper.transcode.ir.Conversation}), a complete answer ({@link shaper.transcode.ir.Completion})
 * and the events of a streamed answer ({@link shaper.transcode.ir.StreamEvent}). Closed sums of
 * records whose compact constructors hold the invariants (ids non-empty, tool arguments a JSON
 * object text, counts non-negative), so decoders cannot build what renderers could not render.
 * Unknown usage is {@code null}, distinct from zero. Immutable and thread-safe.
 */
package shaper.transcode.ir;
