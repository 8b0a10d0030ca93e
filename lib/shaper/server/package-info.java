/**
 * The listener: Helidon SE WebServer wiring and the {@link shaper.server.MountTable} dispatch
 * (reserved health route, client keys, mount prefixes, 404), plus the adapters that let the
 * {@code shaper.auth} policy edit Helidon headers. Startup resolves every secret and validates
 * every mount before the port is bound; each provider gets its own limiters, admitter, upstream
 * pool, counters and credential rewrite, and nothing mutable is shared between providers except
 * the timer thread and the disconnect watcher, which never block.
 */
package shaper.server;
