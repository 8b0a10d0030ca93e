package shaper.configfile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import shaper.cli.ArgvSections;
import shaper.cli.FlagSpec;
import shaper.cli.OptionModel;

/**
 * The file's settings with the command line's on top, as one argv, plus where each surviving
 * file setting was written so an error can point there.
 */
final class Merged {
    private static final Pattern FLAG_IN_MESSAGE = Pattern.compile("(?<![\\w-])--?[a-z][a-z0-9-]*");

    private record Part(String name, List<Setting> settings, Location at) {
    }

    private final Part head;
    private final List<Part> sections;

    private Merged(Part head, List<Part> sections) {
        this.head = head;
        this.sections = sections;
    }

    static Merged of(FileSections file, ArgvSections cli) {
        List<Setting> cliHead = ConfigLoader.settings(cli.head());
        if (!file.listed() && cli.sectioned() && file.firstProviderKey().isPresent()) {
            Setting s = file.firstProviderKey().get();
            throw FileSections.located(s.at(), s.flag(), "configures the file's single provider at the top level, but the command line"
                    + " has --provider sections: put the file's provider keys in a providers: entry");
        }
        Part head = new Part(null, overlay(file.head(), cliHead), null);
        List<Part> sections = new ArrayList<>();
        for (FileSections.FileSection s : file.sections()) {
            sections.add(new Part(s.name(), s.settings(), s.at()));
        }
        for (ArgvSections.Section s : cli.sections()) {
            List<Setting> flags = ConfigLoader.settings(s.args());
            int same = indexOf(sections, s.name());
            if (same >= 0) {
                Part p = sections.get(same);
                sections.set(same, new Part(p.name(), overlay(p.settings(), flags), p.at()));
            } else {
                sections.add(new Part(s.name(), flags, null));
            }
        }
        return new Merged(head, sections);
    }

    private static int indexOf(List<Part> parts, String name) {
        for (int i = 0; name != null && i < parts.size(); i++) {
            if (name.equals(parts.get(i).name())) {
                return i;
            }
        }
        return -1;
    }

    /** {@code base} without the flags {@code top} sets, then {@code top}: the later source wins a whole key. */
    private static List<Setting> overlay(List<Setting> base, List<Setting> top) {
        Set<String> replaced = new HashSet<>();
        top.stream().map(Setting::flag).filter(Objects::nonNull).forEach(f -> replaced.add(f.key()));
        List<Setting> out = new ArrayList<>();
        base.stream().filter(s -> !replaced.contains(s.flag().key())).forEach(out::add);
        out.addAll(top);
        return out;
    }

    List<String> argv() {
        List<String> argv = new ArrayList<>();
        head.settings().forEach(s -> argv.addAll(s.tokens()));
        for (Part p : sections) {
            argv.add(ArgvSections.marker(p.name()));
            p.settings().forEach(s -> argv.addAll(s.tokens()));
        }
        return argv;
    }

    /**
     * {@code message} prefixed with the file position of the flag it is about, when that flag came
     * from the file; else with the position of the provider entry it is about; else unchanged.
     *
     * @param flag    the flag the error names, or {@code null} (the message is searched for one)
     * @param section 0 for the head, N for the Nth section, -1 when unknown (the head)
     */
    String locate(String message, String flag, int section) {
        Part part = section >= 1 && section <= sections.size() ? sections.get(section - 1) : head;
        Map<String, Location> keys = new HashMap<>();
        part.settings().stream().filter(s -> s.at() != null && s.flag() != null).forEach(s -> keys.put(s.flag().key(), s.at()));
        List<String> candidates = new ArrayList<>();
        if (flag != null) {
            candidates.add(flag);
        }
        Matcher m = FLAG_IN_MESSAGE.matcher(message);
        while (m.find()) {
            candidates.add(m.group());
        }
        for (String c : candidates) {
            FlagSpec f = OptionModel.current().byName(c).orElse(null);
            if (f != null && keys.containsKey(f.key())) {
                return keys.get(f.key()) + ": " + f.key() + ": " + message;
            }
        }
        return part.at() != null ? part.at() + ": " + message : message;
    }
}
