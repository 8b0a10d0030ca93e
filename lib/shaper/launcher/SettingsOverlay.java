package shaper.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The settings Claude Code gets: a copy of the user's overlay with {@code env.ANTHROPIC_BASE_URL}
 * set to the shaper. The source is the first of {@code --settings}, {@code ~/.claude/retry-proxy.json}
 * (when it exists), {@code SHAPER_SETTINGS}, or an empty object. A value whose text starts with
 * <code>{</code> is inline JSON, anything else a file path; a named file must exist. The user's file is
 * only ever read.
 *
 * <p>Valid means: one JSON object, nothing after it, and an {@code env} member that, if present,
 * is an object whose values are all strings (what Claude Code copies into its environment).
 * Messages name the source and the JSON position but never quote the content, which may hold keys.
 */
public final class SettingsOverlay {
    /** Read when no {@code --settings} is given, so a user's standing overlay applies to every launch without a flag. */
    static final String HOME_OVERLAY = ".claude/retry-proxy.json";
    static final String BASE_URL = "ANTHROPIC_BASE_URL";

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private SettingsOverlay() {
    }

    /** The validated overlay source for this launch, before the base URL is set. */
    public static ObjectNode load(Optional<String> settingsArg, LauncherEnv env) throws LaunchException {
        if (settingsArg.isPresent()) {
            return parse(settingsArg.get(), LauncherArgs.SETTINGS);
        }
        Path homeOverlay = env.home().resolve(HOME_OVERLAY);
        if (Files.exists(homeOverlay)) {
            return parseFile(homeOverlay, "~/" + HOME_OVERLAY);
        }
        if (env.settings().isPresent()) {
            return parse(env.settings().get(), LauncherVariable.SETTINGS.variable());
        }
        return JSON.createObjectNode();
    }

    /**
     * A copy of {@code source} whose {@code env.ANTHROPIC_BASE_URL} is {@code baseUrl}.
     *
     * @return the copy and whether the source had pointed Claude Code somewhere else
     */
    public static Result withBaseUrl(ObjectNode source, String baseUrl) {
        ObjectNode copy = source.deepCopy();
        JsonNode env = copy.get("env");
        ObjectNode envObject = env instanceof ObjectNode o ? o : copy.putObject("env");
        JsonNode previous = envObject.get(BASE_URL);
        boolean replaced = previous != null && !previous.asText().equals(baseUrl);
        envObject.put(BASE_URL, baseUrl);
        return new Result(copy, replaced);
    }

    /** The overlay as written, and whether it replaced the user's own {@code ANTHROPIC_BASE_URL}. */
    public record Result(ObjectNode settings, boolean replacedBaseUrl) {
        public byte[] bytes() {
            try {
                return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(settings);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("a JSON tree always serializes", e);
            }
        }
    }

    private static ObjectNode parse(String value, String origin) throws LaunchException {
        if (value.stripLeading().startsWith("{")) {
            return validate(read(value, origin + " (inline JSON)"), origin + " (inline JSON)");
        }
        return parseFile(Path.of(value), origin + " " + value);
    }

    private static ObjectNode parseFile(Path file, String origin) throws LaunchException {
        if (!Files.isRegularFile(file)) {
            throw new LaunchException(origin + ": " + (Files.exists(file) ? "not a regular file" : "no such file"));
        }
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new LaunchException(origin + ": cannot read: " + e.getMessage());
        }
        return validate(read(text, origin), origin);
    }

    private static JsonNode read(String text, String origin) throws LaunchException {
        try {
            JsonNode node = JSON.readTree(text);
            if (node == null || node.isMissingNode()) {
                throw new LaunchException(origin + ": empty; expected a JSON object (use {} for none)");
            }
            return node;
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
            throw new LaunchException(origin + ": invalid JSON" + where + ": " + e.getOriginalMessage()
                    + "; Claude Code was not started");
        }
    }

    private static ObjectNode validate(JsonNode node, String origin) throws LaunchException {
        if (!(node instanceof ObjectNode object)) {
            throw new LaunchException(origin + ": expected a JSON object, got " + kind(node) + "; Claude Code was not started");
        }
        JsonNode env = object.get("env");
        if (env == null) {
            return object;
        }
        if (!env.isObject()) {
            throw new LaunchException(origin + ": \"env\" must be an object of strings, got " + kind(env)
                    + "; Claude Code was not started");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = env.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isTextual()) {
                throw new LaunchException(origin + ": env." + e.getKey() + " must be a string, got " + kind(e.getValue())
                        + "; Claude Code was not started");
            }
        }
        return object;
    }

    private static String kind(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            case NUMBER -> "a number";
            case OBJECT -> "an object";
            case STRING -> "a string";
            case BINARY, MISSING, POJO -> "a " + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
        };
    }
}
