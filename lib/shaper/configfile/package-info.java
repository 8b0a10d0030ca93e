/**
 * The configuration file ({@code -config FILE}): YAML whose keys are the flag names without the dash,
 * read with Jackson's YAML parser keeping every key's line and column ({@link shaper.configfile.YamlReader}),
 * translated into the command line it stands for ({@code FileSections}), overlaid by the real command
 * line ({@code Merged}: a command-line flag replaces the file's whole key, inside {@code --provider=NAME}
 * the key of the entry named NAME) and parsed by the one command-line parser, so a value means the same
 * in both places and a mistake exits with the same code (2 usage, 1 bad value), its message prefixed
 * with {@code file:line:column} when the flag came from the file. {@link shaper.configfile.ConfigSchema}
 * generates {@code shaper.schema.json} from the same option model as {@code -h}.
 */
package shaper.configfile;
