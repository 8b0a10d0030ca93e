package shaper.proxy;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;

import shaper.http.HopByHop;

/**
 * Which headers cross the proxy. Two documented lists decide it:
 * <ul>
 *   <li>{@link #HOP_BY_HOP}: RFC 9110 §7.6.1 connection-specific fields plus the legacy ones
 *       every proxy drops ({@code Proxy-Connection}, {@code Keep-Alive}, {@code TE}, {@code Trailer},
 *       {@code Transfer-Encoding}, {@code Upgrade}, {@code Proxy-Authenticate}, {@code Proxy-Authorization}),
 *       and every field named in the message's own {@code Connection} header.</li>
 *   <li>{@link #FORWARDING}: the proxy is a stealth hop, so client-supplied {@code Forwarded}, every
 *       {@code X-Forwarded-*} field and the de-facto client-IP fields that CDNs and load balancers
 *       set ({@code X-Real-IP}, {@code True-Client-IP}, {@code CF-Connecting-IP}, {@code X-Client-IP},
 *       {@code X-Cluster-Client-IP}, {@code Fastly-Client-IP}) are removed, and nothing identifying
 *       the client is added.</li>
 * </ul>
 * {@code Host} is never copied (the upstream's host is sent) and framing ({@code Content-Length})
 * is decided by the body copy, so both are handled by the caller.
 */
public final class HeaderPolicy {
    /**
     * Lower-case names of hop-by-hop fields (RFC 9110 §7.6.1 and the legacy set): {@link HopByHop#NAMES},
     * the one list, which the credential settings check as well.
     */
    public static final Set<String> HOP_BY_HOP = HopByHop.NAMES;

    /**
     * Lower-case names of forwarding and client-IP fields removed for the stealth hop (RFC 7239
     * {@code Forwarded} and the de-facto client-IP fields); plus the {@code x-forwarded-} family.
     */
    public static final Set<String> FORWARDING = Set.of("forwarded", "x-real-ip", "true-client-ip", "cf-connecting-ip",
            "x-client-ip", "x-cluster-client-ip", "fastly-client-ip");
    private static final String X_FORWARDED_PREFIX = "x-forwarded-";

    private HeaderPolicy() {
    }

    /** Passes each end-to-end request header except {@code Host}, {@code Content-Length} and forwarding fields. */
    public static void forEachRequestHeader(Headers headers, Consumer<Header> sink) {
        Set<String> dropped = connectionListed(headers);
        for (Header h : headers) {
            String lower = h.headerName().lowerCase();
            if (dropped.contains(lower) || lower.equals("host") || lower.equals("content-length") || lower.equals("expect")
                    || FORWARDING.contains(lower) || lower.startsWith(X_FORWARDED_PREFIX)) {
                continue;
            }
            sink.accept(h); // the field as received (name and values are immutable): no re-creation per message
        }
    }

    /** Passes each end-to-end response header except {@code Content-Length}, which the body copy sets. */
    public static void forEachResponseHeader(Headers headers, Consumer<Header> sink) {
        Set<String> dropped = connectionListed(headers);
        for (Header h : headers) {
            String lower = h.headerName().lowerCase();
            if (dropped.contains(lower) || lower.equals("content-length")) {
                continue;
            }
            sink.accept(h); // the field as received (name and values are immutable): no re-creation per message
        }
    }

    /** Hop-by-hop names plus every token of the message's {@code Connection} fields; malformed tokens are ignored. */
    static Set<String> connectionListed(Headers headers) {
        if (!headers.contains(HeaderNames.CONNECTION)) {
            return HOP_BY_HOP; // the common case: no copy of the fixed list per message
        }
        Set<String> names = new HashSet<>(HOP_BY_HOP);
        for (Header h : headers) {
            if (!h.headerName().lowerCase().equals("connection")) {
                continue;
            }
            for (String value : h.allValues()) {
                for (String token : value.split(",")) {
                    String t = token.trim().toLowerCase(Locale.ROOT);
                    if (!t.isEmpty() && isToken(t)) {
                        names.add(t);
                    }
                }
            }
        }
        return names;
    }

    /** Request ids are opaque, but every API this proxy fronts spells them in these characters, well under this length. */
    private static final int MAX_REQUEST_ID = 128;

    /**
     * An upstream's {@code Retry-After} the proxy may write into an answer of its own (a transcoded
     * route's error): delay-seconds or an HTTP-date (RFC 9110 section 10.2.3), else null. A relayed
     * answer passes the field on as it came; an answer the proxy writes vouches only for values it checked.
     */
    static String reemittableRetryAfter(String value) {
        if (value == null || value.isEmpty() || value.length() > 40) {
            return null;
        }
        if (value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return value.length() <= 10 ? value : null;
        }
        try {
            java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.parse(value);
            return value.chars().allMatch(c -> c >= 0x20 && c < 0x7f) ? value : null;
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    /** An upstream's request id the proxy may write into an answer of its own: letters, digits and {@code -_.:}, at most 128. */
    static String reemittableRequestId(String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_REQUEST_ID) {
            return null;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-_.:".indexOf(c) >= 0)) {
                return null;
            }
        }
        return value;
    }

    private static boolean isToken(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c > 0x20 && c < 0x7f && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
