package shaper.transcode.responses;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import shaper.transcode.ErrorText;
import shaper.transcode.ErrorTypes;
import shaper.transcode.TranscodeException;
import shaper.transcode.UpstreamError;

/**
 * The OpenAI error envelope {@code {"error":{"message","type","param","code"}}} and its status table:
 * 400/404/409/413/422 and other 4xx invalid_request_error, 401 authentication_error,
 * 403 permission_error, 429 rate_limit_error, 529 overloaded_error, other 5xx api_error.
 * The upstream's own type, code and param are kept when it sent them.
 */
public final class ResponsesErrors {
    private ResponsesErrors() {
    }

    public static String typeFor(int status) {
        return ErrorTypes.shared(status);
    }

    public static byte[] body(UpstreamError e) {
        String type = e.type() != null && !e.type().isEmpty() ? e.type() : typeFor(e.status());
        return body(type, e.message(), e.param(), e.code());
    }

    public static byte[] body(TranscodeException e) {
        return body(typeFor(e.status()), e.getMessage(), null, code(e));
    }

    /** The machine-readable code of a local or wire failure. */
    static String code(TranscodeException e) {
        return switch (e) {
            case TranscodeException.TooLarge t -> "request_too_large";
            case TranscodeException.Unsupported u -> "unsupported_feature";
            case TranscodeException.Invalid i -> null;
            case TranscodeException.UnsupportedEncoding u -> "unsupported_content_encoding";
            case TranscodeException.UpstreamWire w -> "upstream_protocol_error";
            case TranscodeException.Unrepresentable u -> "response_conversion_error";
        };
    }

    /** The {@code error} member of a failed response: {@code {"code","message"}}. */
    static ObjectNode failure(String code, String message) {
        return JsonNodeFactory.instance.objectNode().put("code", code).put("message", ErrorText.bound(message));
    }

    private static byte[] body(String type, String message, String param, String code) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        // a null param or code is written as JSON null, as OpenAI does
        root.putObject("error").put("message", ErrorText.bound(message)).put("type", type).put("param", param).put("code", code);
        return root.toString().getBytes(StandardCharsets.UTF_8);
    }
}
