///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 21+
//DEPS io.opentelemetry:opentelemetry-bom:1.68.0@pom
//DEPS io.helidon.webserver:helidon-webserver:4.5.0
//DEPS io.helidon.webserver:helidon-webserver-websocket:4.5.0
//DEPS info.picocli:picocli:4.7.7
//DEPS com.fasterxml.jackson.core:jackson-databind:2.20.0
//DEPS com.fasterxml.jackson.dataformat:jackson-dataformat-yaml:2.20.0
//DEPS org.jline:jline:4.5.0
//DEPS io.prometheus:prometheus-metrics-core:1.10.0
//DEPS io.prometheus:prometheus-metrics-exposition-textformats:1.10.0
//DEPS redis.clients:jedis:8.0.2
//DEPS org.slf4j:slf4j-api:2.0.20
//DEPS org.slf4j:slf4j-nop:2.0.20
//DEPS com.github.luben:zstd-jni:1.5.7-28
//DEPS org.brotli:dec:0.1.2
//DEPS io.opentelemetry:opentelemetry-sdk:1.68.0
//DEPS io.opentelemetry:opentelemetry-exporter-otlp:1.68.0
//DEPS io.opentelemetry:opentelemetry-sdk-extension-autoconfigure:1.68.0
//DEPS io.opentelemetry:opentelemetry-exporter-sender-jdk:1.68.0
//DEPS com.aayushatharva.brotli4j:brotli4j:1.24.0
//DEPS com.aayushatharva.brotli4j:native-linux-x86_64:1.24.0
//DEPS io.opentelemetry.proto:opentelemetry-proto:1.11.0-alpha
//DEPS com.google.protobuf:protobuf-java:4.35.1
//DEPS org.junit:junit-bom:5.14.1@pom
//DEPS org.junit.jupiter:junit-jupiter:5.14.1
//DEPS org.junit.jupiter:junit-jupiter-engine:5.14.1
//DEPS org.junit.jupiter:junit-jupiter-params:5.14.1
//DEPS org.junit.platform:junit-platform-engine:1.14.1
//DEPS org.junit.platform:junit-platform-commons:1.14.1
//DEPS org.junit.platform:junit-platform-launcher:1.14.1
//SOURCES ../lib/**/*.java
//FILES shaper/status/status.html=../lib/shaper/status/status.html
//SOURCES shaper/*.java
//SOURCES shaper/**/*.java
//JAVA_OPTIONS --enable-native-access=ALL-UNNAMED -Xmx1g -XX:+UseG1GC

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.discovery.ClassNameFilter;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs the JUnit 5 suite: every class under package {@code shaper} whose name ends in {@code Test},
 * or only the classes / {@code Class#method} selectors given as arguments. Prints failures, then
 * {@code N passed, N failed} as the last line; exits 1 on any failure or when no test ran.
 */
public class RunTests {
    public static void main(String[] args) {
        List<DiscoverySelector> selectors = new ArrayList<>();
        for (String a : args) {
            String name = a.contains(".") ? a : "shaper." + a;
            selectors.add(name.contains("#") ? DiscoverySelectors.selectMethod(qualify(name)) : DiscoverySelectors.selectClass(qualify(name)));
        }
        if (selectors.isEmpty()) {
            selectors.add(DiscoverySelectors.selectPackage("shaper"));
        }
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectors)
                .filters(ClassNameFilter.includeClassNamePatterns(".*Test"))
                .configurationParameter("junit.jupiter.execution.timeout.default", "120 s")
                .build();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        var progress = new ProgressListener();
        LauncherFactory.create().execute(request, summary, progress);
        TestExecutionSummary s = summary.getSummary();
        s.printFailuresTo(new PrintWriter(System.out, true), 25);
        long passed = s.getTestsSucceededCount();
        long failed = s.getTestsFailedCount() + s.getContainersFailedCount();
        System.out.println(passed + " passed, " + failed + " failed");
        System.exit(failed == 0 && passed > 0 ? 0 : 1);
    }

    /** Accepts {@code ProxyHeadersTest} or {@code proxy.ProxyHeadersTest} as well as fully qualified names. */
    private static String qualify(String name) {
        if (name.startsWith("shaper.")) {
            String simple = name.substring("shaper.".length());
            if (!simple.contains(".") && !simple.isEmpty()) {
                String found = ProgressListener.findTestClass(simple);
                return found != null ? found : name;
            }
        }
        return name;
    }

    /** Prints one line per finished test so a long run shows progress and where it hung. */
    static final class ProgressListener implements org.junit.platform.launcher.TestExecutionListener {
        @Override
        public void executionFinished(org.junit.platform.launcher.TestIdentifier id, org.junit.platform.engine.TestExecutionResult result) {
            if (id.isTest()) {
                String status = result.getStatus().toString();
                System.out.println("[" + status + "] " + id.getUniqueIdObject().getSegments().stream()
                        .filter(seg -> seg.getType().equals("class") || seg.getType().equals("method"))
                        .map(seg -> seg.getValue().replaceFirst("^shaper\\.", "").replaceAll("\\(.*\\)$", "()"))
                        .reduce((a, b) -> a + "#" + b).orElse(id.getDisplayName()));
                result.getThrowable().ifPresent(t -> System.out.println("    " + t));
            }
        }

        /** Finds {@code shaper.<pkg>.Simple} for a simple class name by scanning this jar's entries. */
        static String findTestClass(String simple) {
            try {
                var loc = RunTests.class.getProtectionDomain().getCodeSource().getLocation();
                try (var jar = new java.util.jar.JarFile(new java.io.File(loc.toURI()))) {
                    String method = simple.contains("#") ? simple.substring(simple.indexOf('#')) : "";
                    String cls = simple.contains("#") ? simple.substring(0, simple.indexOf('#')) : simple;
                    return jar.stream().map(e -> e.getName())
                            .filter(n -> n.startsWith("shaper/") && n.endsWith("/" + cls + ".class"))
                            .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.') + method)
                            .findFirst().orElse(null);
                }
            } catch (Exception e) {
                return null;
            }
        }
    }
}
