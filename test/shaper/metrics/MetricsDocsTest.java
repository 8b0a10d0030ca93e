package shaper.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import shaper.ProjectRoot;

/** docs/metrics-and-logs.md's metrics table and the Grafana dashboard have one source: {@link Series}. */
class MetricsDocsTest {
    private static final Pattern SERIES_NAME = Pattern.compile("\\bshaper_[a-z_]+");

    @Test
    void readmeMetricsTableListsExactlyTheExportedSeries() throws Exception {
        String readme = Files.readString(ProjectRoot.find().resolve("docs/metrics-and-logs.md"));
        int start = readme.indexOf("| series | type | labels | meaning |");
        assertTrue(start >= 0, "docs/metrics-and-logs.md has no metrics table");
        List<String> rows = new ArrayList<>();
        for (String line : readme.substring(start).split("\n")) {
            if (!line.startsWith("|")) {
                break;
            }
            rows.add(line);
        }
        List<String> expected = new ArrayList<>(List.of("| series | type | labels | meaning |", "| --- | --- | --- | --- |"));
        for (Series s : Series.values()) {
            List<String> labels = new ArrayList<>(s.perProvider() ? List.of("`provider`") : List.of());
            s.labels().forEach(l -> labels.add("`" + l + "`"));
            expected.add("| `" + s.metricName() + "` | " + s.type().name().toLowerCase(Locale.ROOT) + " | "
                    + String.join(", ", labels) + " | " + s.help() + " |");
        }
        assertEquals(String.join("\n", expected), String.join("\n", rows), "docs/metrics-and-logs.md metrics table drifted from Series");
    }

    @Test
    void everyDashboardQueryNamesAnExportedSeries() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(ProjectRoot.find().resolve("dashboards/shaper.json").toFile());
        Set<String> exported = new HashSet<>();
        for (Series s : Series.values()) {
            exported.add(s.metricName());
            if (s.type() == Series.Type.HISTOGRAM) {
                exported.add(s.metricName() + "_bucket");
                exported.add(s.metricName() + "_count");
                exported.add(s.metricName() + "_sum");
            }
        }
        List<String> exprs = new ArrayList<>();
        dashboard.findValues("expr").forEach(e -> exprs.add(e.asText()));
        dashboard.findValues("definition").forEach(e -> exprs.add(e.asText()));
        assertFalse(exprs.isEmpty(), "the dashboard has queries");
        Set<String> used = new HashSet<>();
        for (String expr : exprs) {
            Matcher m = SERIES_NAME.matcher(expr);
            boolean any = false;
            while (m.find()) {
                any = true;
                used.add(m.group());
                assertTrue(exported.contains(m.group()), "dashboard query names an unknown series " + m.group() + ": " + expr);
            }
            assertTrue(any, "a dashboard query names no series: " + expr);
        }
        for (Series s : Series.values()) {
            boolean shown = used.stream().anyMatch(u -> u.equals(s.metricName()) || u.startsWith(s.metricName() + "_"));
            assertTrue(shown, s.metricName() + " has no panel");
        }
    }

    @Test
    void dashboardIsImportableJsonWithAProviderVariable() throws Exception {
        Path file = ProjectRoot.find().resolve("dashboards/shaper.json");
        JsonNode dashboard = new ObjectMapper().readTree(file.toFile());
        assertTrue(dashboard.path("panels").size() > 0);
        assertTrue(dashboard.path("templating").path("list").findValuesAsText("name").contains("provider"));
    }
}
