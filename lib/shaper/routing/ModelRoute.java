package shaper.routing;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import shaper.config.ConfigException;
import shaper.priority.Glob;

/**
 * One {@code -model-route 'PATTERN=TARGET[,TARGET...]'}: requests whose {@code model} matches the
 * glob {@code PATTERN} ({@code *} any run of characters, {@code ?} one character, matched whole and
 * ignoring case, as {@code -priority-rule} matches models) go to the targets in order.
 *
 * @param pattern the glob, as written: also the route's name in logs, metrics and health
 * @param targets the targets in order; never empty
 */
public record ModelRoute(String pattern, List<Target> targets) {
    /**
     * A provider that may serve the route, and the model it is asked for there.
     *
     * @param provider      the provider's name
     * @param upstreamModel the model the body names when sent to it; empty keeps the client's model
     */
    public record Target(String provider, Optional<String> upstreamModel) {
        public Target {
            Objects.requireNonNull(provider, "provider");
            Objects.requireNonNull(upstreamModel, "upstreamModel");
        }

        @Override
        public String toString() {
            return upstreamModel.map(m -> provider + ":" + m).orElse(provider);
        }
    }

    public ModelRoute {
        Objects.requireNonNull(pattern, "pattern");
        targets = List.copyOf(targets);
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("targets: [] (expected: at least one)");
        }
    }

    /** Parses a {@code -model-route} value; a malformed one is a semantic error naming it. */
    public static ModelRoute parse(String text) {
        int eq = text.indexOf('=');
        if (eq <= 0 || eq == text.length() - 1) {
            throw new ConfigException("-model-route " + quote(text) + " (expected: PATTERN=PROVIDER[:UPSTREAM_MODEL][,...])", "-model-route", 0);
        }
        String pattern = text.substring(0, eq).strip();
        List<Target> targets = new ArrayList<>();
        for (String t : text.substring(eq + 1).split(",", -1)) {
            String s = t.strip();
            int colon = s.indexOf(':');
            String provider = colon < 0 ? s : s.substring(0, colon);
            String model = colon < 0 ? "" : s.substring(colon + 1);
            if (provider.isEmpty() || (colon >= 0 && model.isEmpty())) {
                throw new ConfigException("-model-route " + quote(text) + ": empty target " + quote(s)
                        + " (expected: PROVIDER or PROVIDER:UPSTREAM_MODEL)", "-model-route", 0);
            }
            targets.add(new Target(provider, model.isEmpty() ? Optional.empty() : Optional.of(model)));
        }
        if (pattern.isEmpty()) {
            throw new ConfigException("-model-route " + quote(text) + ": empty pattern", "-model-route", 0);
        }
        return new ModelRoute(pattern, targets);
    }

    /** Whether {@code model} matches the pattern; a request without a model matches only {@code *}. */
    public boolean matches(String model) {
        if (model == null) {
            return pattern.equals("*");
        }
        return new Glob(pattern, true).matches(model);
    }

    /** The value as written back ({@code -print-config}). */
    @Override
    public String toString() {
        return pattern + "=" + String.join(",", targets.stream().map(Target::toString).toList());
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
