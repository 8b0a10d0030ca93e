package shaper.tui;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import shaper.usage.TokenUsage;

/**
 * One finished exchange as the Requests and Network tabs and the detail overlay show it: the
 * dashboard's own copy, filled by {@link ServerFrames} from the proxy's journal.
 *
 * @param id              journal sequence number, unique per provider
 * @param arrived         when the request arrived
 * @param method          request method
 * @param url             path and query as the client sent it (the dashboard shows raw URLs, as the spec allows)
 * @param status          committed status, 0 when none was committed
 * @param limited         whether the request held a concurrency slot
 * @param aborted         whether the exchange did not complete cleanly
 * @param outcome         the outcome's label ({@code clean}, {@code aborted}, {@code failed} …)
 * @param reason          which exit path ended it ({@code completed}, {@code client_left}, {@code queue_timeout} …)
 * @param attempts        upstream attempts made, 0 when none was
 * @param queue           time spent waiting for a slot; {@link Duration#ZERO} when none
 * @param ttfb            admission to upstream response headers; null when no headers arrived
 * @param download        response headers to the last body byte; null when the body did not complete
 * @param total           arrival to the end of the exchange
 * @param contentType     response content type, "" when none
 * @param responseBytes   response body bytes delivered, -1 when unknown
 * @param requestHeaders  request headers in arrival order
 * @param upstreamHeaders request headers as sent upstream (the last attempt's), an injected
 *                        credential's value hidden; empty when the request never went upstream
 * @param responseHeaders response headers in arrival order
 * @param requestPreview  the first bytes of the request body as text, "" when none was kept
 * @param responsePreview the first bytes of the response body as text, "" when none was kept
 * @param model           the {@code model} the request body names, "" when none
 * @param priorityClass   the priority class it queued in, "" when the provider declares none
 * @param usage           the tokens it used (reported or estimated), {@link TokenUsage#NONE} when none
 * @param client          who asked: its client identity, {@code anonymous} when none
 */
public record RequestRow(long id, Instant arrived, String method, String url, int status, boolean limited,
                         boolean aborted, String outcome, String reason, int attempts, Duration queue, Duration ttfb,
                         Duration download, Duration total, String contentType, long responseBytes,
                         List<Map.Entry<String, String>> requestHeaders, List<Map.Entry<String, String>> upstreamHeaders,
                         List<Map.Entry<String, String>> responseHeaders, String requestPreview, String responsePreview,
                         String model, String priorityClass, TokenUsage usage, String client) {
    /** A row of an exchange with no priority class and no usage. */
    public RequestRow(long id, Instant arrived, String method, String url, int status, boolean limited,
                      boolean aborted, String outcome, String reason, int attempts, Duration queue, Duration ttfb,
                      Duration download, Duration total, String contentType, long responseBytes,
                      List<Map.Entry<String, String>> requestHeaders, List<Map.Entry<String, String>> upstreamHeaders,
                      List<Map.Entry<String, String>> responseHeaders, String requestPreview, String responsePreview,
                      String model) {
        this(id, arrived, method, url, status, limited, aborted, outcome, reason, attempts, queue, ttfb, download, total, contentType,
                responseBytes, requestHeaders, upstreamHeaders, responseHeaders, requestPreview, responsePreview, model, "", TokenUsage.NONE, "anonymous");
    }

    public RequestRow {
        Objects.requireNonNull(arrived, "arrived");
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(total, "total");
        contentType = contentType == null ? "" : contentType;
        requestHeaders = List.copyOf(requestHeaders);
        upstreamHeaders = List.copyOf(upstreamHeaders);
        responseHeaders = List.copyOf(responseHeaders);
        model = model == null ? "" : model;
        priorityClass = priorityClass == null ? "" : priorityClass;
        usage = usage == null ? TokenUsage.NONE : usage;
        requestPreview = requestPreview == null ? "" : requestPreview;
        responsePreview = responsePreview == null ? "" : responsePreview;
    }

    /** The Network tab's type filter classes, cycled with {@code t}. */
    public enum Kind {
        ALL, JSON, HTML, EVENTS, OTHER;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        Kind next() {
            return values()[(ordinal() + 1) % values().length];
        }
    }

    /** json, html, events (SSE) or other, from the response content type. */
    public Kind kind() {
        String ct = contentType.toLowerCase(Locale.ROOT);
        if (ct.contains("json")) {
            return Kind.JSON;
        }
        if (ct.contains("html")) {
            return Kind.HTML;
        }
        if (ct.contains("event-stream")) {
            return Kind.EVENTS;
        }
        return Kind.OTHER;
    }

    /** Whether the exchange ended because its queue wait ran out ({@code -queue-timeout}). */
    public boolean queueTimeout() {
        return reason.equals("queue_timeout");
    }

    /** The path without its query. */
    public String path() {
        int q = url.indexOf('?');
        return q < 0 ? url : url.substring(0, q);
    }

    /** The last path segment, as the Network tab's Name column shows it; "/" for the root. */
    public String name() {
        String p = path();
        while (p.length() > 1 && p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        int slash = p.lastIndexOf('/');
        String last = slash < 0 ? p : p.substring(slash + 1);
        return last.isEmpty() ? "/" : last;
    }
}
