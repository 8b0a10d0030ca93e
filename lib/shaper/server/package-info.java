/**
 * The listener: Helidon SE WebServer wiring and the {@link shaper.server.MountTable} dispatch
 * (reserved health route, client keys, mount prefixes, 404), plus the adapters that let the
 * {@code shaper.auth} policy edit Helidon headers. Startup resolves every secret and validates
 * every mount before the port is bound; each provider gets its own limiters, admitter, upstream
 * pool, counters and credential rewrite, and nothing mutable is shared between providers except
 * the timer thread and the disconnect watcher, which never block.
 *
 * <p>Hostile input and slow clients: {@code BadInputAnswer} records every request the listener
 * refuses before routing as an exchange (one record, one log line, counted) and turns a request
 * Helidon could not parse at all into a {@code 400} (Helidon would answer {@code 500} with a stack
 * trace); {@code PassthroughEncodings} keeps the listener from decoding or refusing any request
 * {@code Content-Encoding}; and
 * {@code HeadReadTimeout} closes connections whose request head is slower than
 * {@code -header-read-timeout}. Stopping: {@link shaper.server.ShaperServer#shutdown(java.time.Duration)}
 * stops accepting, fails queued requests with the queue timeout answer, lets in-flight exchanges
 * finish up to the grace, then cuts the rest ({@code cutNow()} ends the wait sooner).
 */
package shaper.server;
