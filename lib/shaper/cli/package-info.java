/**
 * The command line, on picocli with the original tool's Go-style flags: single-dash long names,
 * {@code -flag=value} or {@code -flag value}, Go durations and booleans. Flags are grouped by
 * scope ({@link shaper.cli.ServerOptions}, {@link shaper.cli.ProviderOptions}; {@link shaper.cli.FlagScopes}
 * is the one source of which is which). Without {@code --provider} markers both scopes share one
 * flattened command line; with markers, argv is split first ({@code ArgvSections}) and each part is
 * parsed with its own scope only. The parser turns argv into an {@link shaper.cli.Invocation}.
 * Exit codes: 2 for usage errors (unknown flag, bad syntax, unparseable value, a flag in the wrong
 * scope, a malformed marker, {@code --account}), 1 for semantic errors (a value out of range, a
 * missing upstream, overlapping prefixes, duplicate names, an unreadable secret).
 */
package shaper.cli;
