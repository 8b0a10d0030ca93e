/**
 * HTTP protocol facts that several concerns share, each one documented constant citing its
 * specification: the proxy's header copy and the credential settings read the same list, so they
 * cannot disagree. Constants only: this package imports no other {@code shaper} package, so any
 * package may use it. Immutable and thread-safe.
 */
package shaper.http;
