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
//JAVA_OPTIONS --enable-native-access=ALL-UNNAMED -Xms64m -Xmx640m -Xmn48m -XX:+UseG1GC -XX:GCTimeRatio=2 -XX:MaxGCPauseMillis=50 -Xss512k -XX:+UseStringDeduplication

/** ai-concurrency-shaper: run {@code ./jbang Shaper.java -h} for the flags. */
public class Shaper {
    public static void main(String[] args) {
        int code = shaper.main.ShaperMain.run(args, shaper.main.ShaperMain.bufferedStdout(), System.err);
        System.exit(code);
    }
}
