/**
 * Token usage read from the answers the proxy relays, without holding back a byte.
 *
 * <p>{@link shaper.usage.UsageScanner} is fed the response body as it is written to the client
 * and keeps at most a bounded window of it: each SSE {@code data:} payload, or the head and tail
 * of a JSON body. It understands the usage objects of the three dialects the proxy speaks:
 * <ul>
 *   <li>Anthropic Messages: {@code usage} of a JSON message, of {@code message_start}'s message and of
 *       {@code message_delta} (cumulative: a later count replaces an earlier one);</li>
 *   <li>Chat Completions: {@code usage} of a completion and of a stream's final usage chunk;</li>
 *   <li>Responses: {@code response.usage} of {@code response.completed} (or a JSON response).</li>
 * </ul>
 * Every dialect is normalised to Anthropic's split ({@link shaper.usage.TokenUsage}): {@code input}
 * excludes tokens read from and written to a cache, {@code output} includes reasoning, and
 * {@code reasoning} repeats that part. A 2xx answer that carries no usage is <em>estimated</em>:
 * input from the request body (the budget's estimate), output from the characters of the answer's
 * text fields at four characters a token.
 *
 * <p>{@link shaper.usage.ModelLabels} bounds the model label values per provider. A scanner
 * belongs to one exchange's relaying thread; {@link shaper.usage.ModelLabels} is thread-safe.
 */
package shaper.usage;
