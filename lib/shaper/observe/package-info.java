/**
 * What the proxy tells its operator: the per-exchange log line and the counters behind the
 * observability semantics (clean vs aborted, status buckets). Everything here must stay free of
 * secrets and query strings.
 */
package shaper.observe;
