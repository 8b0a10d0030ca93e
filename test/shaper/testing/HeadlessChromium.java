package shaper.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Debian's {@code chromium}, headless, driven over the DevTools protocol: navigate, evaluate an
 * expression in the page, take a screenshot. A real browser rendering the page's own script, which
 * {@code --dump-dom} cannot do for a page that keeps an event stream open. Started with its own
 * profile directory, on an ephemeral loopback debugging port; {@link #close} ends the browser process
 * and its children by their process handles.
 */
public final class HeadlessChromium implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LISTENING = Pattern.compile("DevTools listening on ws://127\\.0\\.0\\.1:(\\d+)/");
    private static final Duration BOUND = Duration.ofSeconds(30);

    private final Process process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();

    /** Whether the browser is installed ({@code .ci/run} installs Debian's package). */
    public static boolean installed() {
        return Path.of("/usr/bin/chromium").toFile().canExecute();
    }

    private HeadlessChromium(Process process, WebSocket socket) {
        this.process = process;
        this.socket = socket;
    }

    /** Starts the browser with {@code profile} as its user data directory (a test's temp dir). */
    public static HeadlessChromium start(Path profile) throws Exception {
        Process p = new ProcessBuilder("/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--remote-allow-origins=*",
                "--user-data-dir=" + profile, "--window-size=1000,1200", "about:blank").redirectErrorStream(true).start();
        try {
            int port = debuggingPort(p);
            HttpClient http = HttpClient.newHttpClient();
            String list = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list")).timeout(BOUND).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            String ws = null;
            for (JsonNode target : JSON.readTree(list)) {
                if (target.path("type").asText().equals("page")) {
                    ws = target.path("webSocketDebuggerUrl").asText();
                    break;
                }
            }
            if (ws == null) {
                throw new IOException("chromium offers no page target: " + list);
            }
            HeadlessChromium[] self = new HeadlessChromium[1];
            WebSocket socket = http.newWebSocketBuilder().connectTimeout(BOUND).buildAsync(URI.create(ws), new WebSocket.Listener() {
                private final StringBuilder message = new StringBuilder();

                @Override
                public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                    message.append(data);
                    if (last) {
                        self[0].answered(message.toString());
                        message.setLength(0);
                    }
                    w.request(1);
                    return null;
                }
            }).get(BOUND.toSeconds(), TimeUnit.SECONDS);
            self[0] = new HeadlessChromium(p, socket);
            return self[0];
        } catch (Exception | Error e) {
            stop(p);
            throw e;
        }
    }

    /** Reads the browser's output until it names its debugging port (bounded: the reader thread is given up on at the bound). */
    private static int debuggingPort(Process p) throws Exception {
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread reader = Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        port.complete(Integer.parseInt(m.group(1)));
                    }
                }
                port.completeExceptionally(new IOException("chromium exited before it listened"));
            } catch (IOException e) {
                port.completeExceptionally(e);
            }
        });
        try {
            return port.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        } finally {
            if (!port.isDone()) {
                reader.interrupt();
            }
        }
    }

    private void answered(String text) {
        try {
            JsonNode m = JSON.readTree(text);
            if (m.has("id")) {
                CompletableFuture<JsonNode> f = pending.remove(m.get("id").asInt());
                if (f != null) {
                    f.complete(m);
                }
            }
        } catch (IOException e) {
            // an event the protocol sent that is not JSON: nothing waits for it
        }
    }

    private JsonNode call(String method, ObjectNode params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        ObjectNode m = JSON.createObjectNode().put("id", id).put("method", method);
        m.set("params", params);
        socket.sendText(m.toString(), true).get(BOUND.toSeconds(), TimeUnit.SECONDS);
        JsonNode r = answer.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        if (r.has("error")) {
            throw new IOException(method + ": " + r.get("error"));
        }
        return r.path("result");
    }

    public void navigate(String url) throws Exception {
        call("Page.navigate", JSON.createObjectNode().put("url", url));
    }

    /** The value of {@code expression} evaluated in the page, as text ("null" when it has none). */
    public String evaluate(String expression) throws Exception {
        JsonNode r = call("Runtime.evaluate", JSON.createObjectNode().put("expression", expression).put("returnByValue", true));
        JsonNode v = r.path("result").path("value");
        return v.isMissingNode() || v.isNull() ? "null" : v.asText();
    }

    /** A PNG of the page as rendered now. */
    public byte[] screenshot() throws Exception {
        return Base64.getDecoder().decode(call("Page.captureScreenshot", JSON.createObjectNode().put("format", "png")
                .put("captureBeyondViewport", true)).path("data").asText());
    }

    @Override
    public void close() {
        socket.abort();
        stop(process);
    }

    private static void stop(Process p) {
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
        }
    }
}
