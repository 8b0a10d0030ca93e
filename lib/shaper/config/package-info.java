/**
 * The ground floor of the configuration: value types and their grammar, which every concern may use
 * and which import no concern. Go durations ({@link shaper.config.GoDuration}, range checks in
 * {@link shaper.config.DurationFlags}), {@code host:port} bind addresses ({@link shaper.config.BindAddress}),
 * http(s) upstream URLs ({@link shaper.config.UpstreamUrl}), provider names ({@link shaper.config.ProviderNames}),
 * and the two located errors: {@link shaper.config.ConfigException} is a semantic error (exit 1), and
 * {@link shaper.config.FlagException} is what it shares with the command line's usage error. The
 * aggregates built from the concerns' records live above the concerns, in {@link shaper.settings}.
 * Everything here is immutable and thread-safe.
 */
package shaper.config;
