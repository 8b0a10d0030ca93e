/**
 * Live reload of the {@code -config} file on {@code SIGHUP} and, with {@code -config-watch}, on a
 * change of the file. A reload is all or nothing:
 * <pre>
 *   source.read (argv + file) ─► validate ─► diff with the running config ─► target.prepare (secrets, providers)
 *        │ any failure: one log line (file:line:column), running config kept, reloads{result="error"}+1
 *        ▼
 *   commit (cannot fail) ─► generation+1, reloads{result="ok"}+1, one log line with the diff
 * </pre>
 * {@link shaper.reload.ConfigDiff} matches providers by name and keeps the settings that cannot change
 * while the proxy runs ({@code -bind}, {@code -metrics-bind}, {@code -tui}, {@code -shutdown-grace},
 * {@code -header-read-timeout}, a provider's {@code -limiter-backend}), reporting each that differs.
 * Reloads are serialised by the {@link shaper.reload.Reloader}; {@link shaper.reload.FileWatch} only
 * asks for one. The configuration comes from a {@link shaper.reload.ConfigSource} handed in by whoever
 * started the proxy, so this package does not know the command line or the file format.
 */
package shaper.reload;
