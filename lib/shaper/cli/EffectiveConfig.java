package shaper.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import shaper.config.GoDuration;

/**
 * {@code -print-config}: the values a parsed command line holds (file, flags and defaults merged)
 * rendered as a configuration file that {@code -config} loads back to the same configuration.
 * Every file key with a value is written, defaults included, so the output documents the whole
 * behaviour; unset flags and empty repeatables are left out, as they are in a file.
 */
final class EffectiveConfig {
    private static final YAMLMapper YAML = YAMLMapper.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .build();
    private static final String HEADER = "# effective configuration (file + flags + defaults); load it with -config FILE\n";

    private EffectiveConfig() {
    }

    /** A single provider without markers: every key at the top level. */
    static String flattened(CommandSpec spec) {
        return HEADER + write(values(spec, false));
    }

    /** Server keys at the top level, then one {@code providers:} entry per section, named as the proxy named it. */
    static String sectioned(CommandSpec head, List<CommandSpec> sections, List<String> names) {
        Map<String, Object> root = values(head, false);
        List<Map<String, Object>> providers = new ArrayList<>();
        for (int i = 0; i < sections.size(); i++) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", names.get(i));
            entry.putAll(values(sections.get(i), true));
            providers.add(entry);
        }
        root.put("providers", providers);
        return HEADER + write(root);
    }

    /** @param skipName whether {@code name} is left out (a {@code providers:} entry's {@code name} is written first) */
    private static Map<String, Object> values(CommandSpec spec, boolean skipName) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (OptionSpec o : spec.options()) {
            FlagSpec flag = OptionModel.of(o);
            if (!flag.fileKey() || (skipName && flag.key().equals("name"))) {
                continue;
            }
            Object value = yamlValue(o.getValue());
            if (value != null) {
                out.put(flag.key(), value);
            }
        }
        return out;
    }

    private static Object yamlValue(Object value) {
        return switch (value) {
            case null -> null;
            case Duration d -> GoDuration.format(d);
            case Boolean b -> b;
            case Integer i -> i;
            case Long l -> l;
            case Path p -> p.toString();
            case Collection<?> c -> c.isEmpty() ? null : c.stream().map(String::valueOf).toList();
            case Map<?, ?> m -> m.isEmpty() ? null : m.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
            default -> value.toString();
        };
    }

    private static String write(Map<String, Object> root) {
        try {
            return YAML.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the configuration as YAML", e);
        }
    }
}
