package shaper.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import shaper.ProjectRoot;

/** README.md's flag tables and the CLI have one source of truth: every flag is documented, every documented flag exists. */
class ReadmeFlagsTest {
    private static final Pattern TABLE_FLAG = Pattern.compile("^\\| `(-[a-z0-9-]+)");

    private static Set<String> cliFlags() {
        CommandLine cl = CommandLineParser.newCommandLine(new CommandLineParser.Flattened());
        Set<String> flags = new TreeSet<>();
        for (OptionSpec o : cl.getCommandSpec().options()) {
            for (String name : o.names()) {
                if (name.startsWith("-") && !name.startsWith("--")) {
                    flags.add(name);
                }
            }
        }
        return flags;
    }

    @Test
    void everyFlagOfTheCliIsInTheReadme() throws Exception {
        String readme = Files.readString(ProjectRoot.find().resolve("README.md"));
        List<String> missing = new ArrayList<>();
        for (String flag : cliFlags()) {
            if (!readme.contains("`" + flag) && !readme.contains(flag + "`")) {
                missing.add(flag);
            }
        }
        assertTrue(missing.isEmpty(), "flags missing from README.md: " + missing);
    }

    @Test
    void everyFlagInTheReadmeTablesExists() throws Exception {
        Set<String> flags = cliFlags();
        List<String> unknown = new ArrayList<>();
        for (String line : Files.readAllLines(ProjectRoot.find().resolve("README.md"))) {
            Matcher m = TABLE_FLAG.matcher(line);
            if (m.find() && !flags.contains(m.group(1))) {
                unknown.add(m.group(1));
            }
        }
        assertTrue(unknown.isEmpty(), "README.md documents flags the CLI does not have: " + unknown);
    }
}
