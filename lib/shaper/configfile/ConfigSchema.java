package shaper.configfile;

import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import shaper.cli.FlagSpec;
import shaper.cli.OptionModel;

/**
 * {@code shaper.schema.json}: the JSON Schema of the configuration file, generated from the
 * {@link OptionModel} (the same source as {@code -h}) so editors can complete and check a file. The
 * committed copy at the repository root is compared with this output by a drift test.
 */
public final class ConfigSchema {
    /** Go's duration grammar ({@code 200ms}, {@code 1h30m}, a bare {@code 0}). */
    static final String DURATION_PATTERN = "^([-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+$|^[-+]?0$";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ConfigSchema() {
    }

    /** The schema as the committed file holds it, ending with a newline. */
    public static String json() {
        ObjectNode root = JSON.createObjectNode();
        root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        root.put("$id", "shaper.schema.json");
        root.put("title", "ai-concurrency-shaper configuration file (-config FILE)");
        root.put("description", "Keys are the proxy's flag names without the dash; the command line overrides the file."
                + " Generated from the flag definitions: do not edit by hand.");
        root.put("type", "object");
        root.put("additionalProperties", false);
        ObjectNode properties = root.putObject("properties");
        List<FlagSpec> flags = OptionModel.current().flags().stream().filter(FlagSpec::fileKey).toList();
        flags.forEach(f -> properties.set(f.key(), property(f)));
        ObjectNode providers = properties.putObject("providers");
        providers.put("description", "Several providers, each mounted at its own prefix; provider-scope keys then go in these entries only");
        providers.put("type", "array");
        providers.putObject("items").put("$ref", "#/$defs/provider");
        ObjectNode provider = root.putObject("$defs").putObject("provider");
        provider.put("type", "object");
        provider.put("additionalProperties", false);
        ObjectNode providerProperties = provider.putObject("properties");
        providerProperties.putObject("name").put("type", "string")
                .put("description", "The provider's name, as --provider=NAME gives it; command-line sections with this name override this entry");
        flags.stream().filter(f -> f.scope() == FlagSpec.Scope.PROVIDER && !f.key().equals("name"))
                .forEach(f -> providerProperties.set(f.key(), property(f)));
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the schema", e);
        }
    }

    private static ObjectNode property(FlagSpec f) {
        ObjectNode p = JSON.createObjectNode();
        p.put("description", f.description() + " (" + f.scope().label() + " scope, " + f.flag() + ")");
        switch (f.kind()) {
            case BOOLEAN -> p.put("type", "boolean");
            case INTEGER -> p.put("type", "integer");
            case DURATION -> {
                ArrayNode any = p.putArray("anyOf");
                any.addObject().put("type", "string").put("pattern", DURATION_PATTERN);
                any.addObject().put("const", 0);
            }
            case STRING -> p.put("type", "string");
            case LIST -> {
                ArrayNode any = p.putArray("anyOf");
                any.addObject().put("type", "string");
                any.addObject().put("type", "array").putObject("items").put("type", "string");
            }
        }
        String d = f.defaultValue();
        if (d != null) {
            switch (f.kind()) {
                case BOOLEAN -> p.put("default", Boolean.parseBoolean(d));
                case INTEGER -> p.put("default", Long.parseLong(d));
                default -> p.put("default", d);
            }
        }
        return p;
    }
}
