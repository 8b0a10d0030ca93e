/**
 * The whole configuration, assembled from the concerns' own records: {@link shaper.settings.ServerConfig}
 * for the listener, {@link shaper.settings.ProviderConfig} per upstream (admission, retry, breaker,
 * auth, cluster, transcode, budget, priority and adaptive settings, each its concern's record) and
 * {@link shaper.settings.ShaperConfig} for the listener with its providers in order.
 *
 * <p>Layering: this package sits above every concern it aggregates and may import them; no concern
 * imports it (a concern is handed its own record), and {@link shaper.config} below it holds only
 * value types. Each record has one canonical constructor, so every default is set where the record
 * is built (the command-line parser) and a copy ({@code with…}) keeps every other component.
 *
 * <p>Everything here is immutable and validated when built: a {@link shaper.config.ConfigException}
 * is a semantic error (exit 1). Thread-safe.
 */
package shaper.settings;
