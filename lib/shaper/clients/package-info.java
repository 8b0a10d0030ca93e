/**
 * Who is asking: each exchange's client identity and the per-client policy the limiters apply to it
 * ({@code -client-id}, {@code -client-weight}, {@code -client-concurrency}, {@code -client-queue-depth},
 * {@code -client-metrics}).
 *
 * <pre>
 *   -client-id key,header:x-team,session   (an ordered list; the first source that yields a name wins)
 *     key          the name of the -client-key the client presented
 *     header:NAME  that request header's value
 *     session      the agent session the request belongs to ({@link shaper.clients.ClientIdentity#SESSION_HEADERS})
 *   none yields ──▶ anonymous (one client like any other)
 * </pre>
 *
 * <p>{@link shaper.clients.ClientIdentity} is the one place an identity is read, for every transport
 * that starts an exchange (an HTTP request, each turn of a long-lived socket, which passes its
 * handshake's headers) and for anything else that needs to know who asks. A value a client sends is
 * hostile input: one longer than {@value shaper.clients.ClientIdentity#MAX_LENGTH} characters or
 * with characters outside visible ASCII yields nothing, and the next source is asked.
 *
 * <p>{@link shaper.clients.ClientConfig} turns a name into the {@link shaper.limit.QueueClient}
 * the limiters see: its weight and its caps. Everything here is immutable and thread-safe.
 */
package shaper.clients;
