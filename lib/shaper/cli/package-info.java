/**
 * The command line, on picocli with Go-style flags: single-dash long names,
 * {@code -flag=value} or {@code -flag value}, Go durations and booleans. Flags are grouped by
 * scope ({@link shaper.cli.ServerOptions}, {@link shaper.cli.ProviderOptions}; {@link shaper.cli.FlagScopes}
 * is the one source of which is which). Without {@code --provider} markers both scopes share one
 * flattened command line; with markers, argv is split first ({@code ArgvSections}) and each part is
 * parsed with its own scope only. The parser turns argv into an {@link shaper.cli.Invocation}.
 * {@link shaper.cli.OptionModel} reads every flag from picocli's model of the two option classes (mixins
 * included): {@code -h} ({@code HelpText}), the configuration file's keys, {@code -print-config} and
 * {@code shaper.schema.json} all come from it, so a new {@code @Option} needs no registration.
 * This package only parses: {@code -config FILE} is read by {@link shaper.configfile}, which overlays
 * the file with the command line and hands the result to this parser, and {@link shaper.main} starts
 * the proxy and connects it to its file ({@code SIGHUP}, {@code -config-watch}); neither is imported here.
 * Exit codes: 2 for usage errors (unknown flag, bad syntax, unparseable value, a flag in the wrong
 * scope, a malformed marker, {@code --account}), 1 for semantic errors (a value out of range, a
 * missing upstream, overlapping prefixes, duplicate names, an unreadable secret).
 */
package shaper.cli;
