package shaper.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import shaper.main.ShaperMain;

/** What the proxy refuses to start with: an endpoint that is no OTLP/HTTP URL, and a protocol this build does not carry. */
class TelemetryFlagsTest {
    private static String refused(String... argv) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ShaperMain.run(argv, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, code, "a bad value is a semantic error");
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void anEndpointMustBeAnHttpUrlWithoutCredentials() {
        assertTrue(refused("-otel", "-otel-endpoint", "ftp://collector:21", "-bind", "127.0.0.1:0", "-upstream", "http://127.0.0.1:9")
                .contains("-otel-endpoint"));
        String creds = refused("-otel", "-otel-endpoint", "https://user:s3cret@collector:4318", "-bind", "127.0.0.1:0",
                "-upstream", "http://127.0.0.1:9");
        assertTrue(creds.contains("OTEL_EXPORTER_OTLP_HEADERS"), creds);
        assertFalse(creds.contains("s3cret"), "the secret is not repeated: " + creds);
    }

    @Test
    void grpcIsRefusedWithTheSettingNamed() {
        // the SDK reads system properties above the environment: the same setting as OTEL_EXPORTER_OTLP_PROTOCOL=grpc
        System.setProperty("otel.exporter.otlp.protocol", "grpc");
        try {
            String err = refused("-otel", "-bind", "127.0.0.1:0", "-upstream", "http://127.0.0.1:9");
            assertTrue(err.contains("OTEL_EXPORTER_OTLP_PROTOCOL=grpc") && err.contains("http/protobuf"), err);
        } finally {
            System.clearProperty("otel.exporter.otlp.protocol");
        }
    }
}
