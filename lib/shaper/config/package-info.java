/**
 * Immutable, validated configuration records, grouped by scope: {@link shaper.config.ServerConfig}
 * for the listener and {@link shaper.config.ProviderConfig} per upstream. Everything here is
 * validated once at startup; a {@link shaper.config.ConfigException} is a semantic error (exit 1).
 * Values parse with the original tool's grammar: Go durations ({@link shaper.config.GoDuration}),
 * {@code host:port} bind addresses, http(s) upstream URLs.
 */
package shaper.config;
