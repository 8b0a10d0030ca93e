package shaper.configfile;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import shaper.cli.FlagKind;
import shaper.cli.FlagSpec;
import shaper.cli.OptionModel;
import shaper.cli.UsageException;

/**
 * A configuration file translated into the command line it stands for: the top-level keys (server
 * scope, and for a single provider its provider-scope keys) and one section per {@code providers:}
 * entry. Keys are flag names without the dash; values must have the flag's type (a boolean for a
 * boolean flag, a list or a single value for a repeatable). Values are not parsed here: the
 * command-line parser does that, so a value means the same in the file as on the command line.
 *
 * @param head      the top-level settings
 * @param sections  the {@code providers:} entries, in order
 * @param listed    whether the file has a {@code providers:} key
 */
record FileSections(List<Setting> head, List<FileSection> sections, boolean listed) {
    private static final String PROVIDERS = "providers";

    /**
     * One {@code providers:} entry.
     *
     * @param name the entry's {@code name:}, or {@code null}
     * @param at   where the entry (or its name) was written
     */
    record FileSection(String name, List<Setting> settings, Location at) {
    }

    /** Whether the top level sets any provider-scope key (the single-provider form). */
    Optional<Setting> firstProviderKey() {
        return head.stream().filter(s -> s.flag().scope() == FlagSpec.Scope.PROVIDER).findFirst();
    }

    static FileSections of(YamlNode root) {
        if (!(root instanceof YamlNode.Mapping top)) {
            throw new UsageException(root.at() + ": the file must be a mapping of flag names to values, not " + YamlNode.describe(root));
        }
        List<Setting> head = new ArrayList<>();
        List<FileSection> sections = new ArrayList<>();
        boolean listed = false;
        for (YamlNode.Entry e : top.entries()) {
            if (e.key().equals(PROVIDERS)) {
                listed = true;
                sections.addAll(providers(e));
            } else {
                head.add(setting(e, null));
            }
        }
        if (listed) {
            for (Setting s : head) {
                if (s.flag().scope() == FlagSpec.Scope.PROVIDER) {
                    throw located(s.at(), s.flag(), "is a provider-scope key: with providers: it belongs in a provider's entry");
                }
            }
        }
        return new FileSections(head, sections, listed);
    }

    private static List<FileSection> providers(YamlNode.Entry e) {
        if (!(e.value() instanceof YamlNode.Sequence list)) {
            throw new UsageException(e.value().at() + ": providers: expected a list of provider entries, got " + YamlNode.describe(e.value()));
        }
        List<FileSection> out = new ArrayList<>();
        for (YamlNode item : list.items()) {
            if (!(item instanceof YamlNode.Mapping entry)) {
                throw new UsageException(item.at() + ": a providers: entry must be a mapping of flag names to values, not " + YamlNode.describe(item));
            }
            String name = null;
            Location at = entry.at();
            List<Setting> settings = new ArrayList<>();
            for (YamlNode.Entry k : entry.entries()) {
                if (k.key().equals("name")) {
                    if (!(k.value() instanceof YamlNode.Scalar s) || s.type() == YamlNode.ScalarType.NULL) {
                        throw new UsageException(k.value().at() + ": name: expected the provider's name, got " + YamlNode.describe(k.value()));
                    }
                    name = s.text();
                    at = k.keyAt();
                    continue;
                }
                Setting s = setting(k, FlagSpec.Scope.PROVIDER);
                settings.add(s);
            }
            out.add(new FileSection(name, settings, at));
        }
        return out;
    }

    /** @param scope the only scope allowed here, or {@code null} for the top level (both) */
    private static Setting setting(YamlNode.Entry e, FlagSpec.Scope scope) {
        FlagSpec flag = OptionModel.current().byKey(e.key())
                .orElseThrow(() -> new UsageException(e.keyAt() + ": unknown key \"" + e.key() + "\" (no flag -" + e.key()
                        + "; keys are flag names without the dash, see -h)"));
        if (!flag.fileKey()) {
            throw located(e.keyAt(), flag, "exists on the command line only");
        }
        if (scope != null && flag.scope() != scope) {
            throw located(e.keyAt(), flag, "is a server-scope key: put it at the top level, not in a provider's entry");
        }
        return new Setting(flag, tokens(flag, e.value()), e.keyAt());
    }

    private static List<String> tokens(FlagSpec flag, YamlNode value) {
        if (flag.kind() == FlagKind.LIST && value instanceof YamlNode.Sequence list) {
            List<String> out = new ArrayList<>();
            for (YamlNode item : list.items()) {
                out.add(flag.flag() + "=" + scalar(flag, item, FlagKind.STRING));
            }
            return out;
        }
        return List.of(flag.flag() + "=" + scalar(flag, value, flag.kind()));
    }

    /** The scalar's text when YAML's type fits the flag's; a usage error naming the place otherwise. */
    private static String scalar(FlagSpec flag, YamlNode node, FlagKind kind) {
        if (node instanceof YamlNode.Scalar s && s.type() != YamlNode.ScalarType.NULL) {
            boolean fits = switch (kind) {
                case BOOLEAN -> s.type() != YamlNode.ScalarType.FLOAT;
                case INTEGER -> s.type() == YamlNode.ScalarType.INTEGER || s.type() == YamlNode.ScalarType.STRING;
                case DURATION -> s.type() == YamlNode.ScalarType.STRING || s.type() == YamlNode.ScalarType.INTEGER;
                case STRING, LIST -> s.type() != YamlNode.ScalarType.BOOLEAN;
            };
            if (fits) {
                return s.text();
            }
        }
        throw located(node.at(), flag, "expected " + expected(kind) + ", got " + YamlNode.describe(node));
    }

    private static String expected(FlagKind kind) {
        return switch (kind) {
            case BOOLEAN -> "a boolean (true or false)";
            case INTEGER -> "an integer";
            case DURATION -> "a Go duration such as 30s or 1h30m";
            case STRING -> "a string";
            case LIST -> "a string or a list of strings";
        };
    }

    static UsageException located(Location at, FlagSpec flag, String what) {
        return new UsageException(at + ": " + flag.key() + " (" + flag.flag() + ") " + what);
    }
}
