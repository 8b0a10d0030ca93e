/**
 * Priority classes: which {@link shaper.limit.QueueClass} a request queues in
 * ({@code -priority-class}, {@code -priority-header}, {@code -priority-rule}, {@code -priority-default}).
 *
 * <pre>
 *   header -priority-header names a declared class? ──yes──▶ that class
 *        │ names an unknown class: counted, then ─┐
 *        ▼ absent                                  ▼
 *   first -priority-rule whose FIELD~GLOB matches ──▶ its class
 *        ▼ none
 *   -priority-default (the first class declared)
 * </pre>
 *
 * <p>With no class declared every request is {@link shaper.limit.QueueClass#DEFAULT} and the
 * limiters stay plain FIFOs. The header is removed before forwarding on every route either way,
 * so the hop stays invisible to the upstream. A wrong header value is never an error: the client
 * is served in the default class. Everything here is immutable and thread-safe.
 */
package shaper.priority;
