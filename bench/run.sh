#!/usr/bin/env bash
# bench/run.sh: the proxy against nginx and a direct connection, side by side, in one run.
#
# Starts on loopback, each on its own port and each stopped by its PID at exit: a fake upstream
# (bench/FakeUpstream.java), the proxy (Shaper.java) and nginx (1 worker, keepalive upstream) in
# front of that same upstream. Measures RPS and p50/p99 with wrk, per-event SSE delay with
# bench/SseProbe.java, and the proxy JVM's RSS; prints the report and writes BENCHMARKS.md.
#
# Settings (environment):
#   BENCH_QUICK=1          ~1 minute run: short warm-up and runs, 20 SSE events (trial numbers only)
#   BENCH_SECTIONS         sections to run, in order (default "warmup http sse"); each NAME is a
#                          function section_NAME below. Memory is always sampled and reported.
#   BENCH_WARMUP           seconds of load through the proxy before measuring (10; quick 3)
#   BENCH_DURATION         seconds per wrk run (12; quick 4)
#   BENCH_CONNECTIONS      wrk concurrencies (default "16 128")
#   BENCH_THREADS          wrk threads (2)
#   BENCH_TARGETS          which paths to load (default "direct nginx proxy")
#   BENCH_SSE_EVENTS       events per SSE stream (100; quick 20), BENCH_SSE_INTERVAL (100ms),
#   BENCH_SSE_PAD          filler bytes per event (0)
#   BENCH_PROXY_ARGS       extra proxy flags, space-separated (e.g. "-limit-all=true -concurrency 4")
#   BENCH_PROXY_LOG        where the proxy's per-exchange log goes (default /dev/null)
#   BENCH_OUT              report path (default BENCHMARKS.md at the repo root; "-" = don't write)
#   BENCH_NOTE             a line quoted at the top of the report (e.g. "Trial run on a shared machine")
#   BENCH_STRICT=1         exit 1 when a target fails (default: exit 0 once the measurements ran)
#   BENCH_MAX_SECONDS      budget for the whole run (1200; quick 300)
# Raw tool output stays in bench/results/last/ (git-ignored).
#
# Adding a measurement: write section_NAME() using wrk_run / md / check / rss_sample and the
# target_url function, and add NAME to BENCH_SECTIONS (or its default below).
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH=$ROOT/bench
RES=$BENCH/results/last
# shellcheck source=bench/lib.sh
. "$BENCH/lib.sh"

QUICK=${BENCH_QUICK:-0}
if [ "$QUICK" = 1 ]; then
  dw=3 dd=4 de=20 dm=300 dwo=1 dset=1
else
  dw=10 dd=12 de=100 dm=1200 dwo=2 dset=3
fi
WARMUP=${BENCH_WARMUP:-$dw}
WARMUP_OTHERS=$dwo
DURATION=${BENCH_DURATION:-$dd}
CONNECTIONS=${BENCH_CONNECTIONS:-"16 128"}
THREADS=${BENCH_THREADS:-2}
TARGETS=${BENCH_TARGETS:-"direct nginx proxy"}
SECTIONS=${BENCH_SECTIONS:-"warmup http sse"}
SSE_EVENTS=${BENCH_SSE_EVENTS:-$de}
SSE_INTERVAL=${BENCH_SSE_INTERVAL:-100ms}
SSE_PAD=${BENCH_SSE_PAD:-0}
PROXY_ARGS=${BENCH_PROXY_ARGS:-}
PROXY_LOG=${BENCH_PROXY_LOG:-/dev/null}
OUT=${BENCH_OUT:-$ROOT/BENCHMARKS.md}
NOTE=${BENCH_NOTE:-}
STRICT=${BENCH_STRICT:-0}
MAX_SECONDS=${BENCH_MAX_SECONDS:-$dm}
IDLE_SETTLE=$dset

declare -A M=()   # measurements: M[http.proxy.16.rps], M[sse.direct.p99_us], M[rss.idle.kb] ...
UP_PORT="" PROXY_PORT="" NGINX_PORT="" UP_PID="" PROXY_PID="" NGINX_PID="" NGINX_BIN=""
HZ=$(getconf CLK_TCK)

# --- the three paths -----------------------------------------------------------------------
target_url() {
  case $1 in
    direct) echo "http://127.0.0.1:$UP_PORT" ;;
    nginx) echo "http://127.0.0.1:$NGINX_PORT" ;;
    proxy) echo "http://127.0.0.1:$PROXY_PORT" ;;
    *) die "unknown target $1 (expected direct, nginx or proxy)" ;;
  esac
}

# The processes whose CPU a target's requests cost (direct: the upstream; nginx: master and worker).
target_pids() {
  case $1 in
    direct) echo "$UP_PID" ;;
    nginx) echo "$NGINX_PID" $(pgrep -P "$NGINX_PID") ;;
    proxy) echo "$PROXY_PID" ;;
  esac
}

# cpu_ticks PID...: user + system clock ticks used so far.
cpu_ticks() {
  local t=0 p
  for p in "$@"; do
    [ -r "/proc/$p/stat" ] && t=$((t + $(awk '{ print $14 + $15 }' "/proc/$p/stat")))
  done
  echo "$t"
}

# upstream_stat connections|requests: the fake upstream's counter (this query's connection included).
upstream_stat() { curl -fs --max-time 2 "$(target_url direct)/__stats" | sed -n "s/.*$1=\([0-9]*\).*/\1/p"; }

start_upstream() {
  ./jbang bench/FakeUpstream.java -port 0 >"$RES/upstream.log" 2>&1 &
  local pid=$! i
  own "$pid"
  UP_PID=$pid
  for ((i = 0; i < 600; i++)); do
    UP_PORT=$(sed -n 's/^fake-upstream listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$RES/upstream.log")
    [ -n "$UP_PORT" ] && break
    alive "$pid" || die "fake upstream exited: $(tail -5 "$RES/upstream.log")"
    sleep 0.1
  done
  [ -n "$UP_PORT" ] || die "fake upstream did not start within 60 s"
  wait_http "$(target_url direct)/1k" "$pid" 10 || die "fake upstream does not answer /1k"
  log "fake upstream pid $pid on 127.0.0.1:$UP_PORT"
}

start_proxy() {
  local attempt port pid health
  for attempt in 1 2 3; do
    port=$(free_port) || die "no free port"
    # shellcheck disable=SC2086 # PROXY_ARGS is a space-separated flag list
    ./jbang Shaper.java -upstream "$(target_url direct)" -bind "127.0.0.1:$port" $PROXY_ARGS >"$PROXY_LOG" 2>"$RES/proxy.err" &
    pid=$!
    own "$pid"
    if wait_http "http://127.0.0.1:$port/__shaper/health" "$pid" 120; then
      PROXY_PORT=$port
      health=$(curl -fs --max-time 2 "http://127.0.0.1:$port/__shaper/health")
      PROXY_PID=$(printf '%s' "$health" | sed -n 's/.*"pid":\([0-9]*\).*/\1/p')
      [ "$PROXY_PID" = "$pid" ] || log "note: health reports pid $PROXY_PID, started pid $pid (RSS is read from $PROXY_PID)"
      [ -r "/proc/$PROXY_PID/status" ] || die "proxy pid $PROXY_PID has no /proc entry"
      log "proxy pid $PROXY_PID on 127.0.0.1:$PROXY_PORT"
      return 0
    fi
    log "proxy did not come up on port $port (attempt $attempt): $(tail -3 "$RES/proxy.err")"
    stop_pid "$pid"
  done
  die "proxy failed to start (see $RES/proxy.err)"
}

start_nginx() {
  local attempt port pid dir=$TMP/nginx
  NGINX_BIN=$(command -v nginx || echo /usr/sbin/nginx)
  mkdir -p "$dir"
  for attempt in 1 2 3; do
    port=$(free_port) || die "no free port"
    # Keep-alive both ways with no per-connection request cap, so nginx and the proxy do the same work.
    cat >"$dir/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $dir/nginx.pid;
error_log $RES/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  client_body_temp_path $dir/client_body;
  proxy_temp_path $dir/proxy;
  fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi;
  scgi_temp_path $dir/scgi;
  upstream fake {
    server 127.0.0.1:$UP_PORT;
    keepalive 256;
    keepalive_requests 1000000;
  }
  server {
    listen 127.0.0.1:$port;
    location / {
      proxy_pass http://fake;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
    }
  }
}
EOF
    "$NGINX_BIN" -p "$dir/" -c "$dir/nginx.conf" -e "$RES/nginx-error.log" >>"$RES/nginx.out" 2>&1 &
    pid=$!
    own "$pid"
    if wait_http "http://127.0.0.1:$port/1k" "$pid" 10; then
      NGINX_PORT=$port
      NGINX_PID=$pid
      log "nginx pid $pid on 127.0.0.1:$NGINX_PORT"
      return 0
    fi
    log "nginx did not come up on port $port (attempt $attempt)"
    stop_pid "$pid"
  done
  die "nginx failed to start (see $RES/nginx-error.log)"
}

# --- measurements --------------------------------------------------------------------------
# wrk_run NAME TARGET CONNECTIONS SECONDS: prints the WRK_RESULT line plus cpu_us_per_req (CPU of
# the target's processes per request) and upstream_conns (connections the upstream accepted
# meanwhile); raw output kept in RES.
wrk_run() {
  local name=$1 target=$2 c=$3 secs=$4 out line pids cpu0 cpu1 conns0 conns1
  out="$RES/wrk-$name-$target-c$c.txt"
  pids=$(target_pids "$target")
  # shellcheck disable=SC2086
  cpu0=$(cpu_ticks $pids)
  conns0=$(upstream_stat connections)
  # wrk refuses more threads than connections.
  if ! run_bounded $((secs + 30)) wrk -t"$((THREADS < c ? THREADS : c))" -c"$c" -d"${secs}s" --timeout 5s --latency \
      -s "$BENCH/wrk-report.lua" "$(target_url "$target")/1k" >"$out" 2>&1; then
    log "wrk $name $target c=$c failed: $(tail -2 "$out")"
    return 1
  fi
  # shellcheck disable=SC2086
  cpu1=$(cpu_ticks $pids)
  conns1=$(upstream_stat connections)
  line=$(grep -m1 '^WRK_RESULT ' "$out") || { log "wrk $name $target c=$c: no result line"; return 1; }
  echo "$line cpu_us_per_req=$(calc "($cpu1 - $cpu0) * 1000000 / $HZ / $(kv requests "$line")" 0)" \
    "upstream_conns=$((${conns1:-0} - ${conns0:-0} - 1))"
}

rss_sample() {
  local label=$1 key=$2 kb hwm
  kb=$(proc_kb "$PROXY_PID" VmRSS)
  hwm=$(proc_kb "$PROXY_PID" VmHWM)
  [ -n "$kb" ] || { log "proxy pid $PROXY_PID is gone: no RSS for '$label'"; return 1; }
  M[rss.$key.kb]=$kb
  M[rss.$key.hwm]=$hwm
  RSS_ROWS+=("| $label | $(fmt_mb "$kb") | $(fmt_mb "$hwm") |")
  log "proxy RSS $label: $(fmt_mb "$kb") (peak $(fmt_mb "$hwm"))"
}
RSS_ROWS=()

max_connections() { echo "$CONNECTIONS" | tr ' ' '\n' | sort -n | tail -1; }

section_warmup() {
  local c t
  c=$(max_connections)
  log "warm-up: ${WARMUP}s through the proxy at c=$c (JIT), ${WARMUP_OTHERS}s each direct and nginx"
  wrk_run warmup proxy "$c" "$WARMUP" >/dev/null || die "warm-up through the proxy failed"
  for t in $TARGETS; do
    [ "$t" = proxy ] || wrk_run warmup "$t" "$c" "$WARMUP_OTHERS" >/dev/null || die "warm-up of $t failed"
  done
}

section_http() {
  local c t line rps p50 p99 errs cpu conns
  md "## HTTP: 1 KiB responses" "" \
    "wrk $(wrk_version), $THREADS threads, ${DURATION}s per run, \`--latency\`, keep-alive, \`GET /1k\` (1024-byte body with Content-Length)." \
    "Closed-loop latency per request as wrk measures it." "" \
    "CPU/req: user + system CPU of the process under test per request (direct: the upstream; nginx: master + worker; proxy: its JVM)," \
    "clock-tick resolution. Upstream conns: TCP connections the upstream accepted during the run (a pooling proxy opens at most one per client connection)." "" \
    "| target | connections | RPS | p50 | p99 | max | CPU/req | upstream conns | errors |" "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for c in $CONNECTIONS; do
    for t in $TARGETS; do
      log "http: $t at c=$c for ${DURATION}s"
      if ! line=$(wrk_run http "$t" "$c" "$DURATION"); then
        md "| $t | $c | failed | | | | | | |"
        continue
      fi
      rps=$(kv rps "$line"); p50=$(kv p50_us "$line"); p99=$(kv p99_us "$line")
      errs=$(($(kv socket_errors "$line") + $(kv non2xx "$line")))
      M[http.$t.$c.rps]=$rps; M[http.$t.$c.p50_us]=$p50; M[http.$t.$c.p99_us]=$p99; M[http.$t.$c.errors]=$errs
      M[http.$t.$c.requests]=$(kv requests "$line"); M[http.$t.$c.upstream_conns]=$(kv upstream_conns "$line")
      cpu=$(fmt_us "$(kv cpu_us_per_req "$line")"); conns=$(kv upstream_conns "$line")
      md "| $t | $c | $(fmt_rps "$rps") | $(fmt_us "$p50") | $(fmt_us "$p99") | $(fmt_us "$(kv max_us "$line")") | $cpu | $conns | $errs |"
      log "http: $t c=$c rps=$(fmt_rps "$rps") p50=$(fmt_us "$p50") p99=$(fmt_us "$p99") cpu/req=$cpu upstream_conns=$conns errors=$errs"
    done
  done
  md ""
  for c in $CONNECTIONS; do http_ratios "$c"; done
  for c in $CONNECTIONS; do pool_warning "$c"; done
  md ""
  rss_sample "after HTTP load" http
}

# A proxy that opens far more upstream connections than it has clients is not pooling them.
pool_warning() {
  local c=$1 t conns
  for t in nginx proxy; do
    conns=${M[http.$t.$c.upstream_conns]:-}
    [ -n "$conns" ] || continue
    if [ "$conns" -gt $((2 * c + 16)) ]; then
      md "- **warning:** $t opened $conns upstream connections for ${M[http.$t.$c.requests]} requests at c=$c: it is not reusing pooled upstream connections."
      log "warning: $t opened $conns upstream connections at c=$c"
    fi
  done
}

http_ratios() {
  local c=$1 p=${M[http.proxy.$1.rps]:-} n=${M[http.nginx.$1.rps]:-} d=${M[http.direct.$1.rps]:-} r result a50 a99
  if [ -n "$p" ] && [ -n "$d" ]; then
    a50=$(fmt_diff_us "${M[http.proxy.$c.p50_us]}" "${M[http.direct.$c.p50_us]}")
    a99=$(fmt_diff_us "${M[http.proxy.$c.p99_us]}" "${M[http.direct.$c.p99_us]}")
    md "- c=$c: proxy / direct RPS = **$(calc "$p / $d")×**; latency added over direct: p50 $a50, p99 $a99"
  fi
  if [ -z "$p" ] || [ -z "$n" ]; then
    check "proxy RPS ≥ 0.5× nginx, c=$c" "≥ 0.50×" "not measured" "n/a"
    return
  fi
  r=$(calc "$p / $n")
  M[ratio.rps.$c]=$r
  md "- c=$c: proxy / nginx RPS = **${r}×** ($(fmt_rps "$p") / $(fmt_rps "$n"))"
  result=$(passfail "$r >= 0.5")
  [ "${M[http.proxy.$c.errors]}" = 0 ] || result="FAIL (${M[http.proxy.$c.errors]} errors)"
  check "proxy RPS ≥ 0.5× nginx, c=$c" "≥ 0.50×" "${r}× ($(fmt_rps "$p") vs $(fmt_rps "$n"))" "$result"
}

section_sse() {
  local args=() t line label bound interval_ms
  for t in $TARGETS; do args+=("$t=$(target_url "$t")"); done
  interval_ms=$(printf '%s' "$SSE_INTERVAL" | awk '/ms$/ { print $0 + 0; next } /us$|µs$/ { print 1; next } /s$/ { print $0 * 1000; next } { print 1000 }')
  bound=$((60 + ${#args[@]} * (SSE_EVENTS * interval_ms / 1000 + 5)))
  log "sse: ${SSE_EVENTS} events every $SSE_INTERVAL through: $TARGETS (bound ${bound}s)"
  run_bounded "$bound" ./jbang bench/SseProbe.java -events "$SSE_EVENTS" -interval "$SSE_INTERVAL" -pad "$SSE_PAD" \
    -warmup 100 -raw "$RES" "${args[@]}" >"$RES/sse.txt" 2>"$RES/sse.err" || log "sse probe failed: $(tail -3 "$RES/sse.err")"
  md "## SSE: per-event delay" "" \
    "\`GET /sse\`: $SSE_EVENTS events $SSE_INTERVAL apart, each stamped with its send time (epoch µs) by the upstream;" \
    "delay = arrival at the probe − send time, nearest-rank percentiles. Each path first gets an unmeasured 100-event warm-up stream." "" \
    "| target | events | p50 | p90 | p99 | max | added p50 (vs direct) | added p99 (vs direct) |" \
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for t in $TARGETS; do
    line=$(grep -m1 "^SSE_RESULT label=$t " "$RES/sse.txt")
    if [ -z "$line" ] || [ -n "$(kv error "$line")" ]; then
      md "| $t | failed: $(kv error "$line") | | | | | | |"
      continue
    fi
    for k in p50_us p90_us p99_us max_us events; do M[sse.$t.$k]=$(kv "$k" "$line"); done
  done
  for t in $TARGETS; do
    [ -n "${M[sse.$t.p50_us]:-}" ] || continue
    local a50="" a99=""
    if [ -n "${M[sse.direct.p50_us]:-}" ] && [ "$t" != direct ]; then
      a50=$(fmt_diff_us "${M[sse.$t.p50_us]}" "${M[sse.direct.p50_us]}")
      a99=$(fmt_diff_us "${M[sse.$t.p99_us]}" "${M[sse.direct.p99_us]}")
    fi
    md "| $t | ${M[sse.$t.events]} | $(fmt_us "${M[sse.$t.p50_us]}") | $(fmt_us "${M[sse.$t.p90_us]}") | $(fmt_us "${M[sse.$t.p99_us]}") | $(fmt_us "${M[sse.$t.max_us]}") | $a50 | $a99 |"
    log "sse: $t p50=$(fmt_us "${M[sse.$t.p50_us]}") p99=$(fmt_us "${M[sse.$t.p99_us]}")"
  done
  md ""
  if [ -n "${M[sse.proxy.p99_us]:-}" ] && [ -n "${M[sse.direct.p99_us]:-}" ]; then
    local add50 add99
    add50=$(( ${M[sse.proxy.p50_us]} - ${M[sse.direct.p50_us]} ))
    add99=$(( ${M[sse.proxy.p99_us]} - ${M[sse.direct.p99_us]} ))
    M[sse.added.p50_us]=$add50; M[sse.added.p99_us]=$add99
    md "- added by the proxy: p50 **$(fmt_us "$add50")**, p99 **$(fmt_us "$add99")**" ""
    check "added SSE delay p99 (proxy − direct)" "≤ 2 ms" "$(fmt_us "$add99") (p50 $(fmt_us "$add50"))" "$(passfail "$add99 <= 2000")"
  else
    check "added SSE delay p99 (proxy − direct)" "≤ 2 ms" "not measured" "n/a"
  fi
}

# Always last: the samples taken so far plus one at the end of the run.
report_memory() {
  rss_sample "end of run (after all load)" end
  md "## Proxy memory" "" "RSS of the proxy JVM from /proc/PID/status (VmRSS now, VmHWM peak so far). JVM flags: \`$JVM_FLAGS\`." "" \
    "| when | RSS | peak RSS |" "| --- | ---: | ---: |" "${RSS_ROWS[@]}" ""
  local kb=${M[rss.end.kb]:-}
  if [ -z "$kb" ]; then
    check "proxy RSS after load" "≤ 300 MB" "not measured" "n/a"
  else
    check "proxy RSS after load" "≤ 300 MB" "$(fmt_mb "$kb") (idle $(fmt_mb "${M[rss.idle.kb]:-0}"), peak $(fmt_mb "${M[rss.end.hwm]}"))" \
      "$(passfail "$kb <= 300 * 1024")"
  fi
}

# --- report --------------------------------------------------------------------------------
# shell_quote TEXT: TEXT as a shell word, single-quoted only when it needs to be.
shell_quote() {
  case $1 in
    *[!A-Za-z0-9_./:=,+-]* | '') printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")" ;;
    *) printf '%s' "$1" ;;
  esac
}

wrk_version() { wrk -v 2>&1 | awk 'NR == 1 { print $2 }'; }

write_report() {
  local cmd file=$RES/BENCHMARKS.md
  cmd=$(env | grep '^BENCH_' | sort | while IFS='=' read -r k v; do printf '%s=%s ' "$k" "$(shell_quote "$v")"; done)
  {
    echo "# Benchmarks"
    echo
    [ -n "$NOTE" ] && echo "> **$NOTE**" && echo
    [ "$QUICK" = 1 ] && echo "> Quick run (\`BENCH_QUICK=1\`): short runs, few SSE events: indicative only." && echo
    echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "- Machine: $(nproc) cores, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), Linux $(uname -r)"
    echo "- Load average (1/5/15 min): $LOAD_START at start, $(cut -d' ' -f1-3 /proc/loadavg) at end. wrk, nginx, the upstream and the proxy share these cores: compare rows of one run, not absolute numbers."
    echo "- JDK (proxy): $JDK_VERSION"
    echo "- Proxy: commit $GIT_REV, \`./jbang Shaper.java -upstream … -bind 127.0.0.1:PORT${PROXY_ARGS:+ $PROXY_ARGS}\`, log to $PROXY_LOG"
    echo "- nginx $("$NGINX_BIN" -v 2>&1 | sed 's/^.*nginx\///'): 1 worker, upstream \`keepalive 256\`, \`proxy_http_version 1.1\`, \`proxy_buffering off\`, \`access_log off\`"
    echo "- Upstream: \`bench/FakeUpstream.java\` (raw sockets, one platform thread per connection)"
    echo "- Command: \`${cmd}bench/run.sh\` (warm-up ${WARMUP}s through the proxy; sections: $SECTIONS)"
    echo
    echo "Reproduce: \`bench/run.sh\` (about 2.5 minutes; \`BENCH_QUICK=1\` for a 1-minute check). Settings are environment variables documented at the top of \`bench/run.sh\`; raw wrk and probe output lands in \`bench/results/last/\`."
    echo
    echo "## Targets"
    echo
    echo "| target | threshold | measured | result |"
    echo "| --- | --- | --- | --- |"
    cat "$RES/checks.md"
    echo
    cat "$RES/body.md"
  } >"$file"
  cat "$file"
  if [ "$OUT" != "-" ]; then cp "$file" "$OUT" && log "report written to $OUT"; fi
}

# --- main ----------------------------------------------------------------------------------
main() {
  cd "$ROOT" || exit 1
  local s t
  for s in $SECTIONS; do declare -F "section_$s" >/dev/null || die "unknown section '$s' in BENCH_SECTIONS"; done
  for t in $TARGETS; do
    case $t in direct | nginx | proxy) ;; *) die "unknown target '$t' in BENCH_TARGETS (expected direct, nginx, proxy)" ;; esac
  done
  rm -rf "$RES" && mkdir -p "$RES" || exit 1
  : >"$RES/body.md"; : >"$RES/checks.md"
  TMP=$(mktemp -d /tmp/shaper-bench.XXXXXX) || exit 1
  trap cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  start_watchdog "$MAX_SECONDS"
  LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
  GIT_REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
  [ -n "$(git status --porcelain -- lib Shaper.java bench 2>/dev/null)" ] && GIT_REV="$GIT_REV + uncommitted changes"

  ensure_tools wrk:wrk nginx:nginx curl:curl
  log "building the scripts (first run downloads dependencies)"
  for s in Shaper.java bench/FakeUpstream.java bench/SseProbe.java; do
    run_bounded 900 ./jbang build "$s" >>"$RES/build.log" 2>&1 || die "build of $s failed (see $RES/build.log)"
  done

  start_upstream
  start_proxy
  start_nginx
  local exe
  exe=$(readlink "/proc/$PROXY_PID/exe")
  JDK_VERSION=$("$exe" -version 2>&1 | sed -n '1,2p' | paste -sd ';' | sed 's/;/; /')
  JVM_FLAGS=$(tr '\0' '\n' <"/proc/$PROXY_PID/cmdline" | grep -E '^-X' | tr '\n' ' ' | sed 's/ $//')
  sleep "$IDLE_SETTLE"
  rss_sample "idle after start" idle

  local s
  for s in $SECTIONS; do
    "section_$s"
    alive "$PROXY_PID" || die "the proxy died during section $s (see $RES/proxy.err)"
  done
  report_memory
  write_report
  if [ "$STRICT" = 1 ] && grep -q '\*\*FAIL' "$RES/checks.md"; then
    log "a target failed (BENCH_STRICT=1)"
    exit 1
  fi
}

main "$@"
