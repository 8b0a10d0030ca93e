package shaper.proxy.client;

import io.helidon.http.HeaderNames;

/** How an answer's body is delimited (RFC 9112 section 6.3). */
enum Framing {
    /** HEAD, 1xx, 204 and 304 answers carry no body, whatever their fields say. */
    NONE,
    LENGTH,
    CHUNKED,
    /** No length and no chunking: the body ends when the upstream closes, and so does the connection. */
    UNTIL_CLOSE;

    static Framing of(String method, ResponseHead head) {
        int code = head.status().code();
        if (method.equals("HEAD") || code < 200 || code == 204 || code == 304) {
            return NONE;
        }
        if (head.headers().contains(HeaderNames.TRANSFER_ENCODING)) {
            return CHUNKED; // ResponseHead refuses any transfer coding but a single chunked
        }
        // a Content-Length left in the head is valid: ResponseHead refuses a malformed one
        return head.headers().contains(HeaderNames.CONTENT_LENGTH) ? LENGTH : UNTIL_CLOSE;
    }
}
