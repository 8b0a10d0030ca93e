package shaper.observe;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

import shaper.usage.TokenUsage;

/**
 * The one immutable account of a finished exchange. Built once when the handler ends (by
 * {@link ExchangeTrace#finish}) and then published by {@link ExchangePublisher}: journal first,
 * then counters and metrics, then the log line. Nothing else counts an exchange.
 *
 * <p>Counting rules (the spec's Observability Semantics): {@code status} is the committed HTTP
 * status, 0 when none was sent; an {@link Outcome#ABORTED} exchange that committed 200 counts in
 * the 2xx bucket <em>and</em> as aborted; queue timeouts, queue rejections, circuit rejections and
 * cancels are never {@link Outcome#CLEAN}.
 *
 * @param id              sequence number within the provider's journal, from 1
 * @param provider        the provider's name ({@code default} for an unnamed single provider)
 * @param route           how the limiters treated it
 * @param routeKey        the matched limited route's key, empty otherwise
 * @param method          request method
 * @param path            the forwarded path (mount prefix removed), raw; never carries the query
 * @param query           the raw query string without {@code ?}, empty when none; journal and TUI only, never logged
 * @param status          committed status, 0 when none was committed
 * @param outcome         clean, aborted, failed (or local)
 * @param reason          which exit path ended it
 * @param provenance      which side failed ({@link Provenance#NONE} when nothing did)
 * @param attempts        upstream attempts made (0 when it never reached the upstream)
 * @param timings         stage offsets
 * @param requestHeaders  request headers as received, raw
 * @param upstreamHeaders request headers as the last attempt sent them upstream, with the value of every
 *                        field the proxy's credential step set hidden; empty when none was sent
 * @param responseHeaders response headers as sent to the client, raw (empty when none were committed)
 * @param requestBody     a bounded preview of the request body
 * @param responseBody    a bounded preview of the response body
 * @param responseBytes   body bytes sent to the client, -1 when unknown
 * @param usage           the tokens it used, reported by the upstream or estimated; {@link TokenUsage#NONE} for none
 * @param priorityClass   the priority class it queued in; empty when the provider declares no classes
 * @param transport       how the call came: {@code http}, or {@code ws} for one turn of a Responses WebSocket session
 * @param routing         the route and targets of a request of the routed mount; {@link RouteTrail#NONE} otherwise
 * @param client          who asked: the identity {@code -client-id} found, {@code anonymous} when none
 */
public record ExchangeRecord(long id, String provider, RouteKind route, String routeKey, String method, String path,
                             String query, int status, Outcome outcome, EndReason reason, Provenance provenance,
                             int attempts, Timings timings, List<Header> requestHeaders, List<Header> upstreamHeaders, List<Header> responseHeaders,
                             BodyPreview requestBody, BodyPreview responseBody, long responseBytes, TokenUsage usage,
                             String priorityClass, String transport, RouteTrail routing, String client) {
    public ExchangeRecord {
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(routeKey, "routeKey");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(provenance, "provenance");
        Objects.requireNonNull(timings, "timings");
        requestHeaders = List.copyOf(requestHeaders);
        upstreamHeaders = List.copyOf(upstreamHeaders);
        responseHeaders = List.copyOf(responseHeaders);
        Objects.requireNonNull(requestBody, "requestBody");
        Objects.requireNonNull(responseBody, "responseBody");
        Objects.requireNonNull(priorityClass, "priorityClass");
        Objects.requireNonNull(routing, "routing");
        Objects.requireNonNull(client, "client");
        if (status < 0 || attempts < 0) {
            throw new IllegalArgumentException("status/attempts: " + status + "/" + attempts + " (expected: >= 0)");
        }
    }

    /** Held a limited slot (the spec's "Limited"). */
    public boolean limited() {
        return route == RouteKind.LIMITED;
    }

    public boolean aborted() {
        return outcome == Outcome.ABORTED;
    }

    public boolean clean() {
        return outcome == Outcome.CLEAN;
    }

    /** Path plus query, as the client sent it (mount prefix removed). */
    public String url() {
        return query.isEmpty() ? path : path + "?" + query;
    }

    /** The last path segment (the Network tab's Name column); "/" for the root. */
    public String name() {
        String p = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
        int slash = p.lastIndexOf('/');
        String last = slash >= 0 ? p.substring(slash + 1) : p;
        return last.isEmpty() ? "/" : last;
    }

    /** The response's {@code Content-Type}, empty when none. */
    public String contentType() {
        for (Header h : responseHeaders) {
            if (h.name().equalsIgnoreCase("content-type")) {
                return h.value();
            }
        }
        return "";
    }

    /** The Network tab's type: json, html, events or other. */
    public String type() {
        String t = contentType().toLowerCase(Locale.ROOT);
        if (t.startsWith("text/event-stream")) {
            return "events";
        }
        if (t.contains("json")) {
            return "json";
        }
        if (t.startsWith("text/html")) {
            return "html";
        }
        return "other";
    }
}
