/**
 * Watching connections without reading them: {@link shaper.proxy.watch.ClientConnection} (a
 * request's client socket, closed after a response when the client asked), the one
 * {@link shaper.proxy.watch.SelectorWatch} thread that notices a waiting client's end of stream
 * without consuming a byte, and the {@link shaper.proxy.watch.CallWatch} thread that bounds each
 * upstream call by {@code -upstream-timeout} and cuts it when its client leaves.
 *
 * <p>Thread-safety: the two watch threads are shared by every request of a server; a
 * {@code ClientConnection} and a {@code CallWatch.Call} belong to one request thread, which the
 * watch may interrupt (a cut call) and never leaves interrupted past the call.
 */
package shaper.proxy.watch;
