package shaper.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import shaper.ProjectRoot;
import shaper.config.GoDuration;

/**
 * The flag tables of README.md and docs/ are checked against the option model (the source of {@code -h}, the file's
 * keys and the schema): every flag is documented, every documented flag exists, and a table's scope
 * and default cells say what the model says.
 */
class ReadmeFlagsTest {
    private static final Pattern TABLE_FLAG = Pattern.compile("^\\| `(-[a-z0-9-]+)");
    private static final Pattern FIRST_CODE = Pattern.compile("`([^`]*)`");

    /**
     * Every hand-written page of the manual: README.md and the reference pages under docs/, one after
     * the other. The generated flag page is left out: it lists every flag by construction, and the
     * point is that each flag is explained where its concern is.
     */
    private static List<String> readme() throws Exception {
        java.nio.file.Path root = ProjectRoot.find();
        List<String> lines = new ArrayList<>(Files.readAllLines(root.resolve("README.md")));
        try (java.util.stream.Stream<java.nio.file.Path> pages = Files.list(root.resolve("docs"))) {
            for (java.nio.file.Path page : pages.filter(f -> f.toString().endsWith(".md") && !f.endsWith("flags.md")).sorted().toList()) {
                lines.add("");
                lines.addAll(Files.readAllLines(page));
            }
        }
        return lines;
    }

    @Test
    void everyFlagOfTheCliIsInTheReadme() throws Exception {
        String readme = String.join("\n", readme());
        List<String> missing = new ArrayList<>();
        for (FlagSpec f : OptionModel.current().flags()) {
            if (!readme.contains("`" + f.flag()) && !readme.contains(f.flag() + "`")) {
                missing.add(f.flag());
            }
        }
        assertTrue(missing.isEmpty(), "flags missing from README.md and docs/: " + missing);
    }

    @Test
    void everyFlagInTheReadmeTablesExists() throws Exception {
        List<String> unknown = new ArrayList<>();
        for (String line : readme()) {
            Matcher m = TABLE_FLAG.matcher(line);
            if (m.find() && OptionModel.current().byName(m.group(1)).isEmpty()) {
                unknown.add(m.group(1));
            }
        }
        assertTrue(unknown.isEmpty(), "README.md or docs/ documents flags the CLI does not have: " + unknown);
    }

    @Test
    void tableScopesAndDefaultsMatchTheFlags() throws Exception {
        List<String> lines = readme();
        List<String> wrong = new ArrayList<>();
        List<String> header = List.of();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!line.startsWith("|")) {
                header = List.of();
                continue;
            }
            if (i + 1 < lines.size() && lines.get(i + 1).matches("^\\|\\s*-{3}.*")) {
                header = cells(line);
                continue;
            }
            Matcher m = TABLE_FLAG.matcher(line);
            Optional<FlagSpec> flag = m.find() ? OptionModel.current().byName(m.group(1)) : Optional.empty();
            if (flag.isEmpty() || header.isEmpty()) {
                continue;
            }
            List<String> row = cells(line);
            int scope = header.indexOf("scope");
            if (scope >= 0 && scope < row.size() && !row.get(scope).equals(flag.get().scope().label())) {
                wrong.add("line " + (i + 1) + ": " + flag.get().flag() + " scope " + row.get(scope) + ", model says " + flag.get().scope().label());
            }
            int def = header.indexOf("default");
            String modelDefault = flag.get().defaultValue();
            if (def >= 0 && def < row.size() && modelDefault != null) {
                Matcher code = FIRST_CODE.matcher(row.get(def));
                if (code.find() && !sameValue(flag.get(), code.group(1), modelDefault)) {
                    wrong.add("line " + (i + 1) + ": " + flag.get().flag() + " default " + code.group(1) + ", model says " + modelDefault);
                }
            }
        }
        assertTrue(wrong.isEmpty(), "tables in README.md or docs/ disagree with the flags (line numbers count README.md, then each page in name order):\n" + String.join("\n", wrong));
    }

    private static boolean sameValue(FlagSpec flag, String readme, String model) {
        if (flag.kind() == FlagKind.DURATION) {
            return GoDuration.parse(readme).equals(GoDuration.parse(model));
        }
        return readme.equals(model);
    }

    /** A table row's cells, an escaped {@code \|} staying inside its cell. */
    private static List<String> cells(String line) {
        String inner = line.strip();
        inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
        return Arrays.stream(inner.split("(?<!\\\\)\\|")).map(String::strip).toList();
    }
}
