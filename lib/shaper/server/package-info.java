/**
 * The listener and the wiring: {@link shaper.server.ShaperServer} resolves every secret and
 * assembles every provider ({@code ProviderAssembler}, one immutable
 * {@link shaper.proxy.ProviderAssembly} each) before the port is bound, then starts the Helidon
 * listener ({@code ShaperListener}) whose one route is the {@code MountTable} dispatch (reserved
 * health route, client keys, mount prefixes, 404), and stops it gracefully. Providers share only
 * {@code ServerServices}: the clock, the log, and the watchers, which never block.
 *
 * <p>Hostile input and slow clients: {@code BadInputAnswer} turns a request Helidon could not
 * parse at all into a quiet {@code 400} (Helidon would answer {@code 500} with a stack trace), and
 * {@code HeadReadTimeout} closes connections whose request head is slower than
 * {@code -header-read-timeout}. Stopping: {@link shaper.server.ShaperServer#shutdown(java.time.Duration)}
 * stops accepting, fails queued requests with the queue timeout answer, lets in-flight exchanges
 * finish up to the grace, then cuts the rest ({@code cutNow()} ends the wait sooner).
 */
package shaper.server;
