/**
 * The proxy's entry point behind {@code Shaper.java}: {@link shaper.main.ShaperMain} reads the command
 * line with its {@code -config} file ({@link shaper.configfile}, over the parser of {@link shaper.cli}),
 * starts the server (or the dashboard around it), and connects the running proxy to its signals:
 * {@code SIGHUP} and {@code -config-watch} reload through a {@link shaper.reload.ConfigSource} that
 * reads the same command line again ({@link shaper.main.LiveReload}); {@code SIGTERM}/{@code SIGINT}
 * stop gracefully, a second one cuts what is in flight ({@code GracefulStop}).
 *
 * <p>Layering: the top of the proxy. It may import every package; none imports it, so the parser,
 * the file reader, reload and the server stay independent of how the process is started.
 */
package shaper.main;
