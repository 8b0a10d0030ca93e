package shaper.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** Small loopback helpers for tests that start processes: a free port, a 200 check, a quiet file read. */
public final class TestNet {
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private TestNet() {
    }

    /** A loopback port that was free a moment ago (nothing listens on it: a closed port). */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** True when {@code uri} answers 200 within two seconds. */
    public static boolean ok(URI uri) {
        try {
            return CLIENT.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The file's text, or empty while it does not exist yet. */
    public static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            return "";
        }
    }
}
