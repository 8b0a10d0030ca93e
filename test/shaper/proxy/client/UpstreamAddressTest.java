package shaper.proxy.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;

import org.junit.jupiter.api.Test;

/** The upstream's {@code Host} field leaves out the scheme's default port, as curl and browsers do. */
class UpstreamAddressTest {
    private static String host(String url) {
        return UpstreamAddress.of(URI.create(url)).hostField();
    }

    @Test
    void theDefaultPortIsLeftOutAndAnyOtherKept() {
        assertEquals("api.example.com", host("https://api.example.com/v1"));
        assertEquals("api.example.com", host("https://api.example.com:443/v1"));
        assertEquals("api.example.com", host("http://api.example.com:80"));
        assertEquals("api.example.com:80", host("https://api.example.com:80"));
        assertEquals("api.example.com:443", host("http://api.example.com:443"));
        assertEquals("127.0.0.1:8080", host("http://127.0.0.1:8080"));
        assertEquals("[::1]:9", host("http://[::1]:9"));
    }
}
