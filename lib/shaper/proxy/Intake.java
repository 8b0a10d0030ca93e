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
 * @param key      the name of the client key the request presented, empty when none is required: kept so
 *                 that each provider that serves it names its client by its own {@code -client-id}
 */
record Intake(Exchange exchange, RequestBody body, AdmissionClass limiters, Optional<String> key) {
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
        Exchange asked = new Exchange(trace.id(), method, rawPath, req.prologue().query().rawValue(), headers, coding,
                Exchange.acceptsEventStream(headers), QueueClass.DEFAULT, QueueClient.ANONYMOUS, estimate.length());
        // classified by the provider it is first served by; a routed request is classified again where it goes
        return new Intake(asked, estimate.body(), AdmissionClass.UNLIMITED, client).at(provider, trace);
    }

    /**
     * The same request as {@code provider} classifies it (its limiters, its priority class): where a
     * routed request is served, which may be another provider than the one its intake first asked.
     */
    Intake at(ProviderAssembly provider, ExchangeTrace trace) {
        Exchange ex = exchange;
        AdmissionClass cls = provider.admission().classify(ex.method(), ex.path(), ex.costBytes());
        trace.classified(cls.limited() ? RouteKind.LIMITED : cls.unlimited() ? RouteKind.UNLIMITED : RouteKind.PASSTHROUGH, cls.route());
        PriorityClassifier classifier = provider.priority();
        QueueClass priority = QueueClass.DEFAULT;
        RequestBody sent = body;
        if (classifier.enabled()) {
            RequestBody.Peek peek = cls.hasLimiters() && classifier.needsModel() ? RequestBody.peek(sent, MODEL_PEEK) : null;
            priority = classifier.classify(new Facts(ex.headers(), ex.path(), peek));
            sent = peek == null ? sent : peek.body();
            trace.priorityClass(priority.name());
        }
        QueueClient who = clientOf(provider, ex.headers(), key, trace);
        Exchange classed = priority == ex.priority() && who.equals(ex.client()) ? ex
                : new Exchange(ex.id(), ex.method(), ex.path(), ex.query(), ex.headers(), ex.coding(), ex.acceptsEventStream(), priority,
                        who, ex.costBytes());
        return new Intake(classed, sent, cls, key);
    }

    /** This intake with its body read into memory, up to {@code limit} bytes (a larger one stays a stream that replays what was read). */
    Intake buffered(int limit) {
        return new Intake(exchange, RequestBody.buffer(body, limit), limiters, key);
    }

    /**
     * A turn of a Responses WebSocket session as an exchange: a {@code POST} of the routed path with
     * the handshake's headers and the request frame as its body (in memory: a frame is bounded by the
     * session), judged by the frame's length; the priority rules see the frame's {@code "model"}.
     */
    static Intake ofTurn(SocketTurn.Asked asked, ProviderAssembly provider, ExchangeTrace trace) {
        byte[] frame = asked.frame();
        AdmissionClass cls = provider.admission().classify("POST", asked.path(), frame.length);
        trace.classified(cls.limited() ? RouteKind.LIMITED : cls.unlimited() ? RouteKind.UNLIMITED : RouteKind.PASSTHROUGH, cls.route());
        RequestBody body = new RequestBody.Buffered(frame, false);
        QueueClass priority = QueueClass.DEFAULT;
        if (provider.priority().enabled()) {
            priority = provider.priority().classify(new Facts(asked.headers(), asked.path(), new RequestBody.Peek(body, frame, frame.length)));
            trace.priorityClass(priority.name());
        }
        // a turn is its socket's: the handshake's headers and key name it
        QueueClient who = clientOf(provider, asked.headers(), asked.client(), trace);
        Exchange exchange = new Exchange(trace.id(), "POST", asked.path(), "", asked.headers(), RequestCoding.of(asked.headers()),
                false, priority, who, frame.length);
        return new Intake(exchange, body, cls, asked.client());
    }

    /** Who asks, as {@code provider}'s {@code -client-id} names it from the headers and the key's name. */
    private static QueueClient clientOf(ProviderAssembly provider, Headers headers, Optional<String> key, ExchangeTrace trace) {
        QueueClient who = provider.config().clients().client(name -> headers.first(HeaderNames.create(name)).orElse(null), key);
        trace.client(who.name());
        return who;
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
