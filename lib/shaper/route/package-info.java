/**
 * Which requests a provider limits, and with which limiter: the {@code -limit} route patterns.
 *
 * <h2>Grammar</h2>
 * <pre>
 *   pattern = METHOD SP path [ ":" ( N | "unlimited" ) ] [ "@" group ]
 * </pre>
 * Parsing order matters: first the text after the last {@code @} becomes the group, but only when no
 * {@code /} follows that {@code @}; then the text after the last {@code :} is read as the limit when it
 * is {@code unlimited} (any case) or a decimal integer {@code >= 0}. Any other colon stays part of the
 * path, so Gemini paths such as {@code /models/gemini-pro:generateContent} need no escaping. Hence
 * {@code POST /messages:3@messages} is limit 3 in group {@code messages}, while the reversed
 * {@code POST /messages@messages:3} is group {@code "messages:3"} without a limit (the table warns).
 * The method is upper-cased. {@code :unlimited} with a group is an error: that class has no limiter.
 *
 * <h2>Matching</h2>
 * Both the pattern path and the request path go through {@link shaper.route.PathSegments}: split on
 * {@code /}, drop empty and {@code .} segments, let {@code ..} pop, then split every segment on
 * {@code :} dropping empties. A pattern matches when the method is equal ignoring case and its
 * segments are the <em>last</em> segments of the request path, compared ignoring case
 * (end-anchored suffix): {@code POST /chat/completions} matches {@code /v1/chat/completions} but not
 * {@code /v1/chat/completions/123}. A pattern without segments matches only the root path.
 * In a {@link shaper.route.RouteTable} the first matching pattern, in configuration order, decides
 * both the limiter and the unlimited classification; the defaults apply only when no {@code -limit}
 * is given.
 *
 * <h2>Limiters</h2>
 * The limiter key is the group, or else the pattern's method and canonical path without its limit
 * (a reload matches limiters by key, so changing only {@code :N} resizes the running limiter). A key whose patterns
 * declare {@code :N} with {@code N > 0} gets its own limiter of size N (the first N wins, later
 * different ones produce a warning); a key with no such {@code N} uses the provider's default pool
 * ({@code -concurrency}). {@code :unlimited} routes take no slot anywhere.
 *
 * <p>Everything here is immutable and thread-safe; parsing errors are {@link IllegalArgumentException}s
 * whose messages are the user-facing configuration errors.
 */
package shaper.route;
