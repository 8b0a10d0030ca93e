package shaper.cli;

import java.util.List;

/**
 * The flag reference page ({@code docs/flags.md}), generated from the one option model, so it lists
 * exactly the flags the command line has with their scope, default and meaning. A test compares
 * the checked-in page with this rendering and rewrites it on request; the per-concern pages keep
 * their own tables, which the same model checks cell by cell.
 */
public final class FlagReference {
    private FlagReference() {
    }

    /** The page, in Markdown. */
    public static String markdown(OptionModel model) {
        StringBuilder out = new StringBuilder();
        out.append("# Flag reference\n\n")
                .append("Generated from the command line's option model (`shaper.cli.FlagReference`); do not edit by hand.\n")
                .append("`UPDATE_DOCS=1 ./smoke.sh shaper.cli.FlagReferenceTest` rewrites it after a flag changes.\n\n")
                .append("- [Syntax](#syntax)\n- [Server scope](#server-scope)\n- [Provider scope](#provider-scope)\n\n")
                .append("## Syntax\n\n")
                .append("Flags are Go style: `-upstream URL`, `-upstream=URL` and `--upstream URL` all work; durations are Go durations\n")
                .append("(`200ms`, `30s`, `1h30m`); booleans accept `-flag` and `-flag=true|false|1|0|t|f`; a repeated flag takes its\n")
                .append("last value, except the repeatable ones (`-limit`, `-client-key`, …), which add up. Server-scope flags come\n")
                .append("before the first `--provider` marker; each `--provider[=NAME]` section takes the provider-scope flags\n")
                .append("(see [providers](providers.md)). Exit codes: `0` ok, `2` a usage error (unknown flag, a value that does not\n")
                .append("parse) with a hint, `1` a semantic error naming the flag (a bad URL, a port out of range, a listen address\n")
                .append("that is taken).\n\n");
        section(out, "Server scope", model.flags(FlagSpec.Scope.SERVER));
        section(out, "Provider scope", model.flags(FlagSpec.Scope.PROVIDER));
        return out.toString();
    }

    private static void section(StringBuilder out, String title, List<FlagSpec> flags) {
        out.append("## ").append(title).append("\n\n| flag | scope | default | meaning |\n| --- | --- | --- | --- |\n");
        for (FlagSpec f : flags) {
            String label = f.paramLabel().isEmpty() ? "" : " " + f.paramLabel();
            String def = f.defaultValue() == null || f.defaultValue().isEmpty() ? "unset" : "`" + f.defaultValue() + "`";
            out.append("| `").append(f.flag()).append(label).append("` | ").append(f.scope().label()).append(" | ").append(def)
                    .append(" | ").append(f.description().replace("|", "\\|")).append(f.repeatable() && !f.description().contains("repeatable") ? " (repeatable)" : "")
                    .append(" |\n");
        }
        out.append('\n');
    }
}
