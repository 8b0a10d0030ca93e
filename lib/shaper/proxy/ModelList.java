package shaper.proxy;

import java.util.List;

import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;

/**
 * The routed mount's own answer to {@code GET /v1/models}: the models its routes name, in the list
 * shape of the client's SDK. Anthropic's clients send {@code anthropic-version} on every request and
 * read {@code {"data":[{"type":"model","id":…}],"has_more":false,…}}; OpenAI's read
 * {@code {"object":"list","data":[{"id":…,"object":"model",…}]}}.
 */
final class ModelList {
    private ModelList() {
    }

    /** Whether the exchange asks for the model list. */
    static boolean asks(Exchange ex) {
        String p = ex.path();
        return ex.method().equals("GET") && (p.equals("/v1/models") || p.equals("/v1/models/"));
    }

    static byte[] of(Headers headers, List<String> models) {
        boolean anthropic = headers.contains(HeaderNames.create("anthropic-version"));
        StringBuilder b = new StringBuilder(64 + 96 * models.size());
        b.append(anthropic ? "{\"data\":[" : "{\"object\":\"list\",\"data\":[");
        for (int i = 0; i < models.size(); i++) {
            String id = Json.quote(models.get(i));
            b.append(i > 0 ? "," : "");
            if (anthropic) {
                // created_at is required by the SDK's type; the routes have no date of their own, so the epoch stands in
                b.append("{\"type\":\"model\",\"id\":").append(id).append(",\"display_name\":").append(id)
                        .append(",\"created_at\":\"1970-01-01T00:00:00Z\"}");
            } else {
                b.append("{\"id\":").append(id).append(",\"object\":\"model\",\"created\":0,\"owned_by\":\"ai-concurrency-shaper\"}");
            }
        }
        b.append(']');
        if (anthropic) {
            b.append(",\"has_more\":false,\"first_id\":").append(models.isEmpty() ? "null" : Json.quote(models.getFirst()))
                    .append(",\"last_id\":").append(models.isEmpty() ? "null" : Json.quote(models.getLast()));
        }
        return b.append('}').toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
