package shaper.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import shaper.testing.RunningShaper;

/**
 * One scrape of {@code /metrics}, checked by {@code promtool check metrics} (the real parser and
 * linter from Prometheus) and read back as samples.
 */
final class Scrape {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    final String text;
    /** Sample key ({@code name{a="x",b="y"}} as exposed) to value, in document order. */
    final Map<String, Double> samples = new LinkedHashMap<>();
    /** Family names in the order their samples appear, one entry per contiguous block. */
    final List<String> blocks = new ArrayList<>();

    private Scrape(String text) {
        this.text = text;
        String last = null;
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            String key = line.substring(0, space);
            samples.put(key, Double.parseDouble(line.substring(space + 1)));
            String family = family(key);
            if (!family.equals(last)) {
                blocks.add(family);
                last = family;
            }
        }
    }

    static Scrape of(RunningShaper shaper) throws Exception {
        int port = shaper.server().metricsPort().orElseThrow();
        HttpResponse<String> res = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, res.statusCode());
        assertEquals(true, res.headers().firstValue("content-type").orElse("").startsWith("text/plain"));
        Scrape s = new Scrape(res.body());
        s.promtool();
        return s;
    }

    /** Runs {@code promtool check metrics} on the text; fails the test on any parse or lint problem. */
    void promtool() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("promtool", "check", "metrics").redirectErrorStream(true).start();
        try {
            p.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                throw new AssertionError("promtool did not finish");
            }
            assertEquals(0, p.exitValue(), "promtool check metrics:\n" + out + "\n---\n" + text);
        } finally {
            p.destroyForcibly();
        }
    }

    /** The value of {@code name{labels}}; labels given as alternating names and values, in exposition order. */
    double value(String name, String... labels) {
        Double v = samples.get(key(name, labels));
        if (v == null) {
            throw new AssertionError("no sample " + key(name, labels) + " in:\n" + text);
        }
        return v;
    }

    boolean has(String family) {
        return blocks.contains(family);
    }

    /** The exposed key: the client writes labels sorted by name. */
    static String key(String name, String... labels) {
        if (labels.length == 0) {
            return name;
        }
        java.util.TreeMap<String, String> sorted = new java.util.TreeMap<>();
        for (int i = 0; i < labels.length; i += 2) {
            sorted.put(labels[i], labels[i + 1]);
        }
        StringBuilder sb = new StringBuilder(name).append('{');
        sorted.forEach((k, v) -> sb.append(sb.charAt(sb.length() - 1) == '{' ? "" : ",").append(k).append("=\"").append(v).append('"'));
        return sb.append('}').toString();
    }

    /** The family a sample belongs to: its name without a histogram's {@code _bucket/_count/_sum}. */
    private static String family(String key) {
        int brace = key.indexOf('{');
        String name = brace < 0 ? key : key.substring(0, brace);
        for (String suffix : List.of("_bucket", "_count", "_sum")) {
            if (name.endsWith(suffix) && name.startsWith("shaper_") && isHistogram(name.substring(0, name.length() - suffix.length()))) {
                return name.substring(0, name.length() - suffix.length());
            }
        }
        return name;
    }

    private static boolean isHistogram(String family) {
        for (Series s : Series.values()) {
            if (s.metricName().equals(family)) {
                return s.type() == Series.Type.HISTOGRAM;
            }
        }
        return false;
    }
}
