-- wrk reporter: after a run, prints one machine-readable line that bench/run.sh parses.
-- Latencies are wrk's per-request times in microseconds (closed loop, no coordinated-omission
-- correction: compare rows of one run, not with open-loop tools).
done = function(summary, latency, requests)
  local e = summary.errors
  local socket_errors = e.connect + e.read + e.write + e.timeout
  local seconds = summary.duration / 1e6
  io.write(string.format(
    "WRK_RESULT requests=%d seconds=%.3f rps=%.1f p50_us=%d p90_us=%d p99_us=%d max_us=%d socket_errors=%d non2xx=%d\n",
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    socket_errors, e.status))
end
