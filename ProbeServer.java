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
//SOURCES lib/**/*.java
//FILES shaper/status/status.html=lib/shaper/status/status.html
//JAVA_OPTIONS -Xms32m -Xmx128m -XX:+UseG1GC -Xss512k

/** The fixture upstream for the shaper: run {@code ./jbang ProbeServer.java -h} for flags and fixture prefixes. */
public class ProbeServer {
    public static void main(String[] args) {
        int code = shaper.probe.ProbeMain.run(args, System.out, System.err);
        System.exit(code);
    }
}
