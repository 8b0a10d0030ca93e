package shaper.cli;

import java.util.List;

/**
 * The {@code -h} text, rendered from the {@link OptionModel} as a flag reference:
 * one line per flag with its value type and default, each flag once, server scope first.
 */
final class HelpText {
    /** The left column never grows past this; a longer flag pushes only its own description right. */
    private static final int MAX_COLUMN = 34;

    private HelpText() {
    }

    /** The whole reference: usage, then both scopes. */
    static String full(String program) {
        StringBuilder b = new StringBuilder();
        b.append("Usage: ").append(program).append(" [flags]\n");
        b.append("       ").append(program).append(" [server flags] --provider[=NAME] [provider flags] [--provider[=NAME] ...]\n");
        b.append("       ").append(program).append(" -config FILE [flags]\n");
        b.append("Stealth reverse proxy with bounded concurrency for AI/LLM APIs.\n\n");
        b.append("Server-scope flags (before the first --provider marker):\n");
        lines(b, OptionModel.current().flags(FlagSpec.Scope.SERVER));
        b.append("\nProvider-scope flags (inside each --provider section; with one provider and no marker, on the same line):\n");
        lines(b, OptionModel.current().flags(FlagSpec.Scope.PROVIDER));
        b.append("\nDurations are Go durations (200ms, 30s, 1h30m); booleans take -flag or -flag=true|false.\n");
        b.append("Inside a section, -h lists that section's flags. Exit codes: 2 usage error, 1 bad value.\n");
        return b.toString();
    }

    /** The reference of one {@code --provider} section: the provider-scope flags. */
    static String section(String program) {
        StringBuilder b = new StringBuilder();
        b.append("Usage: ").append(program).append(" [server flags] --provider[=NAME] [provider flags] ...\n");
        b.append("Provider-scope flags: they configure the upstream of this --provider section only.\n\n");
        lines(b, OptionModel.current().flags(FlagSpec.Scope.PROVIDER));
        b.append("  -h, -help                 show this section's flag reference and exit\n");
        return b.toString();
    }

    private static void lines(StringBuilder b, List<FlagSpec> flags) {
        int column = Math.min(MAX_COLUMN, flags.stream().mapToInt(f -> left(f).length()).max().orElse(0));
        for (FlagSpec f : flags) {
            String left = left(f);
            b.append("  ").append(left).append(" ".repeat(Math.max(1, column - left.length() + 2))).append(right(f)).append('\n');
        }
    }

    /** {@code -name TYPE}: Go's flag package shows {@code int}, {@code duration} and nothing for a boolean. */
    static String left(FlagSpec f) {
        String names = f.key().equals("h") ? "-h, -help" : f.flag();
        String type = switch (f.kind()) {
            case BOOLEAN -> "";
            case INTEGER -> "int";
            case DURATION -> "duration";
            case STRING, LIST -> f.paramLabel().isEmpty() ? "string" : f.paramLabel();
        };
        return type.isEmpty() ? names : names + " " + type;
    }

    private static String right(FlagSpec f) {
        String text = f.description();
        if (f.repeatable() && !text.contains("repeatable")) {
            text += "; repeatable";
        }
        if (f.defaultValue() != null && !f.defaultValue().isEmpty()) {
            text += " (default " + f.defaultValue() + ")";
        }
        return text;
    }
}
