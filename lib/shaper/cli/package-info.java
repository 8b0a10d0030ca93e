/**
 * The command line, on picocli with the original tool's Go-style flags: single-dash long names,
 * {@code -flag=value} or {@code -flag value}, Go durations and booleans. Flags are grouped by
 * scope ({@link shaper.cli.ServerOptions}, {@link shaper.cli.ProviderOptions}); the parser turns
 * argv into an {@link shaper.cli.Invocation}. Exit codes: 2 for usage errors (unknown flag, bad
 * syntax, unparseable value), 1 for semantic errors (a value out of range, a missing upstream).
 */
package shaper.cli;
