package shaper.proxy;

import java.util.Optional;

import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import io.helidon.webserver.http.ServerRequest;
import shaper.admission.AdmissionClass;
import shaper.codec.BodyDecoder;
import shaper.codec.CodingException;
import shaper.codec.ContentCodings;
import shaper.limit.QueueClass;
import shaper.limit.QueueClient;
import shaper.observe.ExchangeTrace;
import shaper.observe.RouteKind;
import shaper.priority.ModelPeek;
import shaper.priority.PriorityClassifier;
import shaper.priority.RequestFacts;

/**
 * The first stage: what an HTTP request asks, as one {@link Exchange}, read before the request may
 * wait. It judges the length the large-request gate sees, classifies the route's limiters and picks
 * the priority class; each reads at most a bounded prefix of the body, and every byte read is still
 * sent on ({@link #body()}).
 *
 * <p>Length: a plain body is judged by its declared {@code Content-Length}, unread. A coded body
 * stands for more tokens than its bytes, so it is read ahead (at most the gate's threshold and at most
 * {@link AdmissionStage#BUFFER_LIMIT}) and judged by its decoded size, counted without keeping the
 * decoded bytes: a bomb costs the threshold, never more. A coded body the proxy cannot decode is
 * judged by its bytes and forwarded as it is: on a passthrough route the upstream decides.
 *
 * <p>Client: the identity {@code -client-id} names ({@code shaper.clients}), from the client key's name
 * and the headers, never the body.
 *
 * <p>Priority: the rules see the routed path, the headers and, only when a {@code model} rule exists
 * and the request may queue, the {@code "model"} in the first {@value #MODEL_PEEK} bytes of the body.
 *
 * @param exchange the request side of the exchange
 * @param body     the body to send on: the client's stream, or the same bytes partly or wholly in memory
 * @param limiters the limiters the request must pass
 */
record Intake(Exchange exchange, RequestBody body, AdmissionClass limiters) {
    /** Bodies put {@code "model"} near the top; a bounded prefix keeps a huge prompt out of memory. */
    static final int MODEL_PEEK = 64 * 1024;

    /**
     * @param rawPath the path after the mount prefix was taken off
     * @param client  the name of the client key the request presented, empty when none is required
     * @throws StreamCopy.SourceFailed the client broke off while a prefix of its body was read
     */
    static Intake of(ServerRequest req, String rawPath, Optional<String> client, ProviderAssembly provider, ExchangeTrace trace) {
        Headers headers = req.headers();
        RequestCoding coding = RequestCoding.of(headers);
        String method = req.prologue().method().text();
        Estimate estimate = estimate(RequestBody.of(req), provider.admission().largeRequestBytes(),
                headers.contentLength().orElse(-1L), coding.codings());
        RequestBody body = estimate.body();
        long cost = estimate.length();
        AdmissionClass cls = provider.admission().classify(method, rawPath, cost);
        trace.classified(cls.limited() ? RouteKind.LIMITED : cls.unlimited() ? RouteKind.UNLIMITED : RouteKind.PASSTHROUGH, cls.route());
        PriorityClassifier classifier = provider.priority();
        QueueClass priority = QueueClass.DEFAULT;
        if (classifier.enabled()) {
            RequestBody.Peek peek = cls.hasLimiters() && classifier.needsModel() ? RequestBody.peek(body, MODEL_PEEK) : null;
            priority = classifier.classify(new Facts(headers, rawPath, peek));
            body = peek == null ? body : peek.body();
            trace.priorityClass(priority.name());
        }
        QueueClient who = provider.config().clients().client(name -> headers.first(HeaderNames.create(name)).orElse(null), client);
        trace.client(who.name());
        Exchange exchange = new Exchange(trace.id(), method, rawPath, req.prologue().query().rawValue(), headers, coding,
                Exchange.acceptsEventStream(headers), priority, who, cost);
        return new Intake(exchange, body, cls);
    }

    /** The body read so far and the length the gate judges ({@code -big-ctx-tokens}, bytes / 4; -1 when unknown). */
    private record Estimate(RequestBody body, long length) {
    }

    private static Estimate estimate(RequestBody body, long threshold, long declared, ContentCodings codings) {
        if (threshold == Long.MAX_VALUE || codings.isIdentity() || declared >= threshold || !(body instanceof RequestBody.Streamed)) {
            return new Estimate(body, declared);
        }
        RequestBody read;
        try {
            read = RequestBody.buffer(body, (int) Math.min(threshold, AdmissionStage.BUFFER_LIMIT));
        } catch (StreamCopy.SourceFailed clientLeft) {
            return new Estimate(body, declared); // the next read of the body meets the same end
        }
        byte[] bytes = read.bytes();
        if (bytes == null) {
            // more bytes than the read-ahead: large when that was the whole threshold
            return new Estimate(read, threshold <= AdmissionStage.BUFFER_LIMIT ? threshold : declared);
        }
        try {
            return new Estimate(read, BodyDecoder.decodedLength(bytes, codings, threshold));
        } catch (CodingException undecodable) {
            return new Estimate(read, bytes.length);
        }
    }

    /** The request as the priority rules see it. */
    private record Facts(Headers headers, String path, RequestBody.Peek peek) implements RequestFacts {
        @Override
        public String header(String name) {
            return headers.first(HeaderNames.create(name)).orElse(null);
        }

        @Override
        public String model() {
            return peek == null ? null : ModelPeek.model(peek.prefix(), peek.length());
        }
    }
}
