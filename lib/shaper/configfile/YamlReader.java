package shaper.configfile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import shaper.cli.UsageException;

/**
 * Reads a configuration file into {@link YamlNode}s with Jackson's YAML parser, token by token, so
 * every key and value keeps its line and column (a data-binding read would lose them). A syntax
 * error or a key written twice is a usage error naming the place.
 */
final class YamlReader {
    private static final YAMLFactory FACTORY = new YAMLFactory();

    private final Path file;
    private final JsonParser parser;

    private YamlReader(Path file, JsonParser parser) {
        this.file = file;
        this.parser = parser;
    }

    /** The document's root; an empty file is an empty mapping. */
    static YamlNode read(Path file, byte[] content) {
        try (JsonParser p = FACTORY.createParser(content)) {
            YamlReader reader = new YamlReader(file, p);
            JsonToken first = p.nextToken();
            if (first == null) {
                return new YamlNode.Mapping(List.of(), new Location(file, 1, 1));
            }
            return reader.node(first);
        } catch (JsonProcessingException e) {
            JsonLocation l = e.getLocation();
            Location at = l == null ? new Location(file, 1, 1) : new Location(file, Math.max(1, l.getLineNr()), Math.max(1, l.getColumnNr()));
            throw new UsageException(at + ": not valid YAML: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UsageException(file + ": cannot read: " + e.getMessage());
        }
    }

    private YamlNode node(JsonToken token) throws IOException {
        Location at = here();
        return switch (token) {
            case START_OBJECT -> mapping(at);
            case START_ARRAY -> sequence(at);
            case VALUE_STRING -> new YamlNode.Scalar(parser.getText(), YamlNode.ScalarType.STRING, at);
            case VALUE_NUMBER_INT -> new YamlNode.Scalar(parser.getText(), YamlNode.ScalarType.INTEGER, at);
            case VALUE_NUMBER_FLOAT -> new YamlNode.Scalar(parser.getText(), YamlNode.ScalarType.FLOAT, at);
            case VALUE_TRUE, VALUE_FALSE -> new YamlNode.Scalar(parser.getText(), YamlNode.ScalarType.BOOLEAN, at);
            case VALUE_NULL -> new YamlNode.Scalar("", YamlNode.ScalarType.NULL, at);
            default -> throw new UsageException(at + ": unexpected YAML content (" + token + ")");
        };
    }

    private YamlNode mapping(Location at) throws IOException {
        List<YamlNode.Entry> entries = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
            String key = parser.currentName();
            Location keyAt = here();
            if (!seen.add(key)) {
                throw new UsageException(keyAt + ": key \"" + key + "\" is written twice");
            }
            entries.add(new YamlNode.Entry(key, keyAt, node(parser.nextToken())));
        }
        return new YamlNode.Mapping(entries, at);
    }

    private YamlNode sequence(Location at) throws IOException {
        List<YamlNode> items = new ArrayList<>();
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
            items.add(node(t));
        }
        return new YamlNode.Sequence(items, at);
    }

    private Location here() {
        JsonLocation l = parser.currentTokenLocation();
        return new Location(file, l.getLineNr(), l.getColumnNr());
    }
}
