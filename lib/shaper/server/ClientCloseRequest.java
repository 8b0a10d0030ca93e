package shaper.server;

import java.util.Locale;

import io.helidon.http.Header;
import io.helidon.http.Headers;

/** Whether a request's {@code Connection} field carries the {@code close} option (any case, any position). */
final class ClientCloseRequest {
    private ClientCloseRequest() {
    }

    static boolean asked(Headers headers) {
        for (Header h : headers) {
            if (!h.headerName().lowerCase().equals("connection")) {
                continue;
            }
            for (String value : h.allValues()) {
                for (String token : value.split(",")) {
                    if (token.trim().toLowerCase(Locale.ROOT).equals("close")) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
