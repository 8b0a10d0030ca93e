package shaper.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The launcher's command line: {@code [--settings FILE|JSON] [claude args...]}. {@code --settings}
 * (or {@code --settings=VALUE}) anywhere before a {@code --} is the launcher's; everything else,
 * in order, is Claude Code's.
 *
 * @param settings   the {@code --settings} value, or empty
 * @param claudeArgs arguments for Claude Code
 */
public record LauncherArgs(Optional<String> settings, List<String> claudeArgs) {
    static final String SETTINGS = "--settings";

    public LauncherArgs {
        claudeArgs = List.copyOf(claudeArgs);
    }

    /** @throws LaunchException exit 2, for a {@code --settings} without a value or given twice */
    public static LauncherArgs parse(List<String> argv) throws LaunchException {
        Optional<String> settings = Optional.empty();
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < argv.size(); i++) {
            String a = argv.get(i);
            if (a.equals("--")) {
                rest.addAll(argv.subList(i, argv.size()));
                break;
            }
            String value;
            if (a.equals(SETTINGS)) {
                if (i + 1 >= argv.size()) {
                    throw new LaunchException(SETTINGS + " needs a value: a settings file or inline JSON", LaunchException.USAGE);
                }
                value = argv.get(++i);
            } else if (a.startsWith(SETTINGS + "=")) {
                value = a.substring(SETTINGS.length() + 1);
            } else {
                rest.add(a);
                continue;
            }
            if (settings.isPresent()) {
                throw new LaunchException(SETTINGS + " given twice; the launcher takes one overlay", LaunchException.USAGE);
            }
            settings = Optional.of(value);
        }
        return new LauncherArgs(settings, rest);
    }
}
