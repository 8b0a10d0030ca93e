package shaper.configfile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import shaper.cli.ArgvSections;
import shaper.cli.CommandLineParser;
import shaper.cli.Invocation;
import shaper.cli.UsageException;
import shaper.config.ConfigException;

/**
 * The command line with its {@code -config} file: the file is translated into the flags it stands
 * for ({@link FileSections}), the command line's flags replace the file's (a repeatable given on the
 * command line replaces the file's whole list; a flag inside {@code --provider=NAME} replaces that
 * key of the file's entry named NAME; a section whose name the file lacks is one more provider),
 * and the result goes through the one command-line parser. An error about a flag that came from
 * the file is prefixed with the file, line and column of its key; exit codes stay those of the flag.
 */
public final class ConfigLoader {
    private ConfigLoader() {
    }

    /**
     * What {@code argv} asks for, reading its {@code -config} file if it names one.
     *
     * @param fileHash  a short SHA-256 of the file as read, empty without a file
     */
    public record Loaded(Invocation invocation, Optional<String> fileHash) {
    }

    /** {@link #load}'s invocation; throws {@link UsageException} (exit 2) or {@link ConfigException} (exit 1). */
    public static Invocation parse(List<String> argv) {
        return load(argv).invocation();
    }

    public static Loaded load(List<String> argv) {
        ArgvSections cli = ArgvSections.split(argv);
        Optional<Path> file = configFile(cli.head());
        if (file.isEmpty()) {
            return new Loaded(CommandLineParser.parse(argv), Optional.empty());
        }
        byte[] content;
        try {
            content = Files.readAllBytes(file.get());
        } catch (IOException e) {
            throw new ConfigException("-config: cannot read " + file.get() + " (" + e.getClass().getSimpleName() + ")", "-config", 0);
        }
        FileSections fromFile = FileSections.of(YamlReader.read(file.get(), content));
        Merged merged = Merged.of(fromFile, cli);
        try {
            return new Loaded(CommandLineParser.parse(merged.argv()), Optional.of(hash(content)));
        } catch (UsageException e) {
            throw new UsageException(merged.locate(e.getMessage(), e.flag(), e.section()), e.flag(), e.section());
        } catch (ConfigException e) {
            throw new ConfigException(merged.locate(e.getMessage(), e.flag(), e.section()), e.flag(), e.section());
        }
    }

    /** The value of {@code -config} among the head's tokens, the last one winning as for every flag. */
    private static Optional<Path> configFile(List<String> head) {
        Path found = null;
        for (List<String> group : ArgvSections.groups(head)) {
            String flag = ArgvSections.flagName(group.get(0));
            if (flag.equals("-config") || flag.equals("--config")) {
                String token = group.get(0);
                String value = token.contains("=") ? token.substring(token.indexOf('=') + 1) : group.size() > 1 ? group.get(1) : null;
                if (value == null || value.isEmpty()) {
                    throw new UsageException("-config needs a file", "-config", 0);
                }
                found = Path.of(value);
            }
        }
        return Optional.ofNullable(found);
    }

    static String hash(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content)).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** Lists every setting of a part of the command line as a {@link Setting} without a file position. */
    static List<Setting> settings(List<String> args) {
        List<Setting> out = new ArrayList<>();
        for (List<String> group : ArgvSections.groups(args)) {
            out.add(new Setting(shaper.cli.OptionModel.current().byName(ArgvSections.flagName(group.get(0))).orElse(null), group, null));
        }
        return out;
    }
}
