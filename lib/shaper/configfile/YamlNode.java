package shaper.configfile;

import java.util.List;

/** A YAML document as the configuration file reads it: every node keeps where it was written. */
public sealed interface YamlNode {
    Location at();

    /** What YAML made of a scalar: the file's types are checked against the flag's before any parsing. */
    enum ScalarType {
        STRING, INTEGER, FLOAT, BOOLEAN, NULL;
    }

    record Scalar(String text, ScalarType type, Location at) implements YamlNode {
    }

    record Sequence(List<YamlNode> items, Location at) implements YamlNode {
        public Sequence {
            items = List.copyOf(items);
        }
    }

    record Mapping(List<Entry> entries, Location at) implements YamlNode {
        public Mapping {
            entries = List.copyOf(entries);
        }
    }

    /** One {@code key: value} of a mapping; {@code keyAt} is where the key was written. */
    record Entry(String key, Location keyAt, YamlNode value) {
    }

    /** How an error names the node's type: "a list", "a mapping", "a boolean". */
    static String describe(YamlNode node) {
        return switch (node) {
            case Sequence s -> "a list";
            case Mapping m -> "a mapping";
            case Scalar s -> switch (s.type()) {
                case STRING -> "a string";
                case INTEGER -> "an integer";
                case FLOAT -> "a decimal number";
                case BOOLEAN -> "a boolean";
                case NULL -> "no value";
            };
        };
    }
}
