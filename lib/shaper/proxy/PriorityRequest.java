package shaper.proxy;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import shaper.limit.QueueClass;
import shaper.priority.ModelPeek;
import shaper.priority.PriorityClassifier;
import shaper.priority.RequestFacts;

/**
 * A request as the priority rules see it: its routed path, its headers and, only when a
 * {@code model} rule exists and the request may queue, the {@code "model"} in the first
 * {@value #MODEL_PEEK} bytes of its body (read before admission; every byte is still sent on).
 */
final class PriorityRequest implements RequestFacts {
    /** Bodies put {@code "model"} near the top; a bounded prefix keeps a huge prompt out of memory. */
    static final int MODEL_PEEK = 64 * 1024;

    /** The request's class, and the body to send on (it may now hold the peeked prefix). */
    record Classified(QueueClass queueClass, RequestBody body) {
    }

    private final ServerRequest req;
    private final String rawPath;
    private final RequestBody.Peek peek;

    private PriorityRequest(ServerRequest req, String rawPath, RequestBody.Peek peek) {
        this.req = req;
        this.rawPath = rawPath;
        this.peek = peek;
    }

    /**
     * @param mayQueue the request passes a limiter: only then is a body read for a {@code model} rule
     * @throws StreamCopy.SourceFailed the client broke off while its body was being peeked at
     */
    static Classified classify(PriorityClassifier classifier, ServerRequest req, String rawPath, RequestBody body, boolean mayQueue) {
        if (!classifier.enabled()) {
            return new Classified(QueueClass.DEFAULT, body);
        }
        RequestBody.Peek peek = mayQueue && classifier.needsModel() ? RequestBody.peek(body, MODEL_PEEK) : null;
        QueueClass cls = classifier.classify(new PriorityRequest(req, rawPath, peek));
        return new Classified(cls, peek == null ? body : peek.body());
    }

    @Override
    public String path() {
        return rawPath;
    }

    @Override
    public String header(String name) {
        return req.headers().first(HeaderNames.create(name)).orElse(null);
    }

    @Override
    public String model() {
        return peek == null ? null : ModelPeek.model(peek.prefix(), peek.length());
    }
}
