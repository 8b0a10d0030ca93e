package shaper.budget;

import java.io.IOException;
import java.util.Base64;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.usage.TokenUsage;

/**
 * Estimates a request's cost at admission, before the upstream has counted anything.
 *
 * <ul>
 *   <li>Input: the characters of the body's text (every string value and key, JSON punctuation
 *       excluded) at {@value #CHARS_PER_TOKEN} characters a token; an image counts by the size its
 *       header declares (PNG, JPEG, GIF, WebP: width × height / 750 tokens after scaling the long edge
 *       to 1568 pixels, at most {@value #IMAGE_TOKENS}; {@value #IMAGE_TOKENS} when the size cannot be
 *       read or the image is a URL), a PDF document by its pages ({@value #PDF_PAGE_TOKENS} a page),
 *       never by the length of its base64 text. A body that is not JSON, or was not read, counts its
 *       length at {@value #CHARS_PER_TOKEN} bytes a token.</li>
 *   <li>Output: the model's recent mean output ({@link OutputMeans}, starting at 1024 tokens), never
 *       more than the request's {@code max_tokens}, {@code max_output_tokens} or
 *       {@code max_completion_tokens}.</li>
 * </ul>
 * Thread-safe.
 */
public final class CostEstimator {
    static final int CHARS_PER_TOKEN = 4;
    static final int IMAGE_TOKENS = 1600;
    static final int PDF_PAGE_TOKENS = 1500;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final OutputMeans means = new OutputMeans();

    /**
     * @param body          the request body when it was read (buffered for replay, transcoding or the queue), else null
     * @param declaredBytes the body's declared length when it was not read, -1 when unknown
     */
    public Cost estimate(byte[] body, long declaredBytes) {
        if (body == null || body.length == 0) {
            return new Cost("", Math.max(0, declaredBytes) / CHARS_PER_TOKEN, 0);
        }
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (IOException e) {
            root = null;
        }
        if (root == null || !root.isObject()) {
            return new Cost("", body.length / CHARS_PER_TOKEN, 0);
        }
        String model = root.path("model").isTextual() ? root.get("model").asText() : "";
        long[] acc = new long[2]; // characters, fixed tokens
        walk(root, acc);
        long input = (acc[0] + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN + acc[1];
        long output = means.mean(model);
        for (String cap : new String[] {"max_tokens", "max_output_tokens", "max_completion_tokens"}) {
            JsonNode n = root.get(cap);
            if (n != null && n.canConvertToLong() && n.asLong() >= 0) {
                output = Math.min(output, n.asLong());
            }
        }
        return new Cost(model, input, output);
    }

    /** Teaches the output mean of the exchange's model; estimated usage teaches nothing. */
    public void learn(Cost estimate, TokenUsage actual) {
        if (actual.source() == TokenUsage.Source.REPORTED) {
            means.record(actual.model().isEmpty() ? estimate.model() : actual.model(), actual.output());
        }
    }

    private static void walk(JsonNode node, long[] acc) {
        if (node.isTextual()) {
            acc[0] += node.asText().length();
        } else if (node.isObject()) {
            Long media = media(node);
            if (media != null) {
                acc[1] += media;
                return;
            }
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                acc[0] += e.getKey().length();
                walk(e.getValue(), acc);
            }
        } else if (node.isArray()) {
            node.forEach(n -> walk(n, acc));
        }
    }

    /** The tokens of an image or document block of any dialect, or null when {@code block} is neither. */
    private static Long media(JsonNode block) {
        String type = block.path("type").asText("");
        switch (type) {
            case "image" -> {
                JsonNode src = block.path("source");
                return src.path("type").asText("").equals("base64") ? MediaSize.imageTokens(decodeHead(src.path("data").asText(""))) : (long) IMAGE_TOKENS;
            }
            case "document" -> {
                JsonNode src = block.path("source");
                if (src.path("type").asText("").equals("base64")) {
                    return MediaSize.pdfTokens(src.path("data").asText(""));
                }
                return null; // a text or content document is counted as text
            }
            case "image_url", "input_image" -> {
                JsonNode url = block.path("image_url");
                String u = url.isTextual() ? url.asText() : url.path("url").asText("");
                int comma = u.indexOf(',');
                return u.startsWith("data:") && comma > 0 ? MediaSize.imageTokens(decodeHead(u.substring(comma + 1))) : (long) IMAGE_TOKENS;
            }
            case "input_file", "file" -> {
                JsonNode f = block.has("file") ? block.path("file") : block;
                String data = f.path("file_data").asText("");
                int comma = data.indexOf(',');
                return data.isEmpty() ? (long) IMAGE_TOKENS : MediaSize.pdfTokens(comma > 0 ? data.substring(comma + 1) : data);
            }
            default -> {
                return null;
            }
        }
    }

    /** The first bytes of a base64 text: enough for any image header we read. */
    private static byte[] decodeHead(String b64) {
        String head = b64.substring(0, Math.min(b64.length(), 64 * 1024 / 3 * 4)).replaceAll("\\s", "");
        head = head.substring(0, head.length() / 4 * 4);
        try {
            return Base64.getDecoder().decode(head);
        } catch (IllegalArgumentException e) {
            return new byte[0];
        }
    }
}
