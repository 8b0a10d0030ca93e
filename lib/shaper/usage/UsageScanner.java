package shaper.usage;

import java.util.Locale;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads the usage of one answer from the bytes the proxy relays, as they pass: {@link #feed} only
 * copies into a bounded window (see {@link PayloadWindow}) and never delays or changes a byte; a
 * payload is looked at when it ends (an SSE line, or the body). Only a payload naming
 * {@code "usage"} (or the model, until one is known) is parsed.
 *
 * <pre>
 * SSE:  line start ──"data:"──▶ payload ──'\n'──▶ evaluate ──▶ line start
 *            └──other field / comment──▶ skip to '\n'
 * JSON: every byte ──▶ payload ──end──▶ evaluate
 * </pre>
 *
 * Not thread-safe: it belongs to the thread relaying the answer.
 */
public final class UsageScanner {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] DATA = {'d', 'a', 't', 'a', ':'};

    private enum Line { START, DATA, SKIP }

    private final boolean sse;
    private final PayloadWindow payload = new PayloadWindow();
    /** Decodes a gzip/deflate body before scanning; null for an identity body. */
    private PushInflater inflater;
    /** An encoding the scanner cannot read: every byte is ignored (the usage is estimated). */
    private boolean blind;
    private Line line = Line.START;
    private int prefixLength;
    private boolean prefixMatches = true;
    private boolean payloadStarted;
    private UsageObject usage = UsageObject.EMPTY;
    private String model;
    private String finishReason;
    private long textChars;

    private UsageScanner(boolean sse) {
        this.sse = sse;
    }

    /**
     * A scanner for an answer of {@code contentType}: SSE for {@code text/event-stream}, JSON for a
     * JSON type or none; any other type (a file, a page) carries no usage and is not looked at.
     */
    public static UsageScanner forContentType(String contentType) {
        String t = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        UsageScanner s = new UsageScanner(t.startsWith("text/event-stream"));
        s.blind = !s.sse && !t.isEmpty() && !t.contains("json");
        return s;
    }

    /**
     * A scanner for an answer relayed with {@code contentEncoding} still applied: gzip and deflate
     * are decoded for the scan (never for the client); another encoding leaves nothing readable.
     */
    public static UsageScanner forEncodedBody(String contentType, String contentEncoding) {
        UsageScanner s = forContentType(contentType);
        String e = contentEncoding == null ? "" : contentEncoding.trim();
        if (!s.blind && !e.isEmpty() && !e.equalsIgnoreCase("identity")) {
            s.inflater = PushInflater.of(e, s::scan);
            if (s.inflater == null) {
                s.blind = true;
            }
        }
        return s;
    }

    /** Takes the next relayed bytes of the body, as the client gets them. */
    public void feed(byte[] b, int off, int n) {
        if (blind) {
            return;
        }
        if (inflater != null) {
            inflater.feed(b, off, n);
            return;
        }
        scan(b, off, n);
    }

    private void scan(byte[] b, int off, int n) {
        if (!sse) {
            payload.append(b, off, n);
            return;
        }
        int i = off;
        int end = off + n;
        while (i < end) {
            switch (line) {
                case DATA -> {
                    if (!payloadStarted) {
                        payloadStarted = true;
                        if (b[i] == ' ') { // one space after the colon is not part of the value
                            i++;
                            continue;
                        }
                    }
                    int nl = indexOf(b, i, end);
                    int stop = nl < 0 ? end : nl;
                    if (stop > i) {
                        payload.append(b, i, stop - i);
                    }
                    if (nl < 0) {
                        return;
                    }
                    evaluate();
                    startLine();
                    i = nl + 1;
                }
                case SKIP -> {
                    int nl = indexOf(b, i, end);
                    if (nl < 0) {
                        return;
                    }
                    startLine();
                    i = nl + 1;
                }
                case START -> {
                    byte c = b[i++];
                    if (c == '\n') {
                        startLine();
                        continue;
                    }
                    prefixMatches &= c == DATA[prefixLength];
                    prefixLength++;
                    if (!prefixMatches) {
                        line = Line.SKIP;
                    } else if (prefixLength == DATA.length) {
                        line = Line.DATA;
                    }
                }
            }
        }
    }

    /**
     * The usage of the answer, once it has ended (or broken off).
     *
     * @param status         the upstream's status; a non-2xx answer without usage counts nothing
     * @param requestModel   the model the request body named, or null; it wins over the answer's
     * @param estimatedInput the request's estimated input tokens, asked only when the answer reports no usage
     */
    public TokenUsage finish(int status, String requestModel, java.util.function.LongSupplier estimatedInput) {
        if (inflater != null) {
            inflater.close();
        }
        if (!sse || line == Line.DATA) {
            evaluate();
        }
        String m = requestModel != null && !requestModel.isBlank() ? requestModel : model != null ? model : "";
        if (!usage.empty()) {
            return usage.reported(m);
        }
        if (status < 200 || status > 299) {
            return TokenUsage.NONE.withModel(m);
        }
        long input = estimatedInput.getAsLong();
        if (textChars == 0 && input <= 0) {
            return TokenUsage.NONE.withModel(m);
        }
        return new TokenUsage(m, Math.max(0, input), (textChars + 3) / 4, 0, 0, 0, TokenUsage.Source.ESTIMATED);
    }

    /** The model the answer named, empty when it named none (so far). */
    public String answerModel() {
        return model == null ? "" : model;
    }

    /** Why generation stopped, as the answer said it, empty when it did not say (in a payload read for its usage). */
    public String finishReason() {
        return finishReason == null ? "" : finishReason;
    }

    /**
     * The model a request body names at its top level (a byte scan, no parse: the body may be
     * large and the answer usually names it anyway); null when none is found.
     */
    public static String requestModel(byte[] body) {
        return body == null ? null : JsonText.firstModel(body, body.length);
    }

    private void startLine() {
        line = Line.START;
        prefixLength = 0;
        prefixMatches = true;
        payloadStarted = false;
    }

    private void evaluate() {
        try {
            if (payload.total() == 0) {
                return;
            }
            if (payload.whole()) {
                evaluateWhole(payload.bytes(), payload.length());
            } else {
                evaluateLarge();
            }
        } finally {
            payload.clear();
        }
    }

    private void evaluateWhole(byte[] p, int len) {
        if (p[0] != '{') {
            return; // [DONE], or not JSON
        }
        if (!summaryEvent(p, len)) {
            textChars += JsonText.textChars(p, len);
        }
        boolean hasUsage = JsonText.hasUsageObject(p, len); // "usage": null needs no parse
        if (!hasUsage && (model != null || !JsonText.contains(p, len, "\"model\""))) {
            return;
        }
        JsonNode root;
        try {
            root = JSON.readTree(p, 0, len);
        } catch (java.io.IOException e) {
            return; // not ours to judge: the client gets the bytes as they are
        }
        if (root == null || !root.isObject()) {
            return;
        }
        for (JsonNode holder : new JsonNode[] {root, root.path("message"), root.path("response")}) {
            if (!holder.isObject()) {
                continue;
            }
            if (model == null && holder.path("model").isTextual()) {
                model = holder.get("model").asText();
            }
            finishReason = FinishReason.of(root, holder, finishReason);
            UsageObject u = UsageObject.of(holder.get("usage"));
            if (!u.empty()) {
                usage = usage.then(u);
            }
        }
    }

    /** A payload too large to hold: the model from its head, the usage from its tail, text by its length. */
    private void evaluateLarge() {
        if (model == null) {
            model = JsonText.firstModel(payload.bytes(), payload.length());
        }
        byte[] tail = payload.tail();
        String u = JsonText.lastUsageObject(tail, tail.length);
        if (u != null) {
            try {
                UsageObject found = UsageObject.of(JSON.readTree(u));
                if (!found.empty()) {
                    usage = usage.then(found);
                }
            } catch (JsonProcessingException e) {
                // a usage object that is not JSON counts as none
            }
        }
        textChars += payload.total();
    }

    /** Responses events that repeat text already streamed as deltas. */
    private static boolean summaryEvent(byte[] p, int len) {
        return JsonText.contains(p, len, ".done\"") || JsonText.contains(p, len, "\"response.completed\"")
                || JsonText.contains(p, len, "\"response.incomplete\"");
    }

    private static int indexOf(byte[] b, int from, int end) {
        for (int i = from; i < end; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
