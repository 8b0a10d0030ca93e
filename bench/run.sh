#!/usr/bin/env bash
# bench/run.sh: the proxy against nginx and a direct connection, side by side, in one run.
#
# Starts on loopback, each on its own port and each stopped by its PID at exit: a fake upstream
# (bench/FakeUpstream.java), the proxy (Shaper.java) and nginx (1 worker, keepalive upstream) in
# front of that same upstream. Measures RPS and p50/p99 with wrk, per-event SSE delay with
# bench/SseProbe.java, and the proxy JVM's RSS; prints the report and writes BENCHMARKS.md.
# Several sections start proxies of their own, among them admission (limited vs passthrough route in one
# process), observe (metrics on vs off), queue10k (10,000 clients queued behind a limit of 4, bench/QueueFlood.java) and
# cluster (a redis-server of its own; Redis-backed vs in-process admission, and a burst over two
# instances sharing one limit), cluster_kinds (the same admission rows over TLS and on a three-master
# Redis Cluster, next to plain Redis and in-process). Sections streams (200, 2,000 and 5,000 concurrent event
# streams through direct, nginx and the proxy) and streams_soak (1,000 streams for 10 minutes with clients
# leaving and returning) live in bench/streams.sh with their settings; they are not in the default list
# (about 9 and 13 minutes): BENCH_SECTIONS="streams streams_soak" BENCH_MAX_SECONDS=2700 bench/run.sh.
#
# Settings (environment):
#   BENCH_QUICK=1          ~1 minute run: short warm-up and runs, 20 SSE events (trial numbers only)
#   BENCH_SECTIONS         sections to run, in order (default "warmup http sse admission routing routing_goodput observe otel transcode transcode_responses queue10k cluster cluster_kinds tokens capacity priority websocket");
#                          each NAME is a function section_NAME below. Memory is always sampled and
#                          reported. Any subset runs alone: BENCH_SECTIONS="admission queue10k".
#   BENCH_WARMUP           seconds of load through the proxy before measuring (10; quick 3)
#   BENCH_DURATION         seconds per wrk run (12; quick 4)
#   BENCH_CONNECTIONS      wrk concurrencies (default "16 128")
#   BENCH_THREADS          wrk threads (2)
#   BENCH_TARGETS          which paths to load (default "direct nginx proxy", plus "baseline" when
#                          BENCH_BASELINE_REV is set)
#   BENCH_BASELINE_REV     a git revision whose proxy runs beside this one as target "baseline" (same
#                          flags, same upstream, same run): the before/after row of a change
#   BENCH_SSE_EVENTS       events per SSE stream (100; quick 20), BENCH_SSE_INTERVAL (100ms),
#   BENCH_SSE_PAD          filler bytes per event (0), BENCH_SSE_ROUNDS streams per target, percentiles
#                          over all their events (3; quick 1),
#                          BENCH_SSE_WARMUP events of an unmeasured stream per target first, as fast as the
#                          upstream sends them (20000; quick 100): a long-running proxy has compiled its
#                          per-event path, a fresh one has not; before it BENCH_SSE_WARMUP_STREAMS streams
#                          (2000; quick 0) of BENCH_SSE_WARMUP_STREAM_EVENTS events 1 ms apart (10), so the
#                          code that starts a stream and the code that waits for the next event are
#                          compiled too (else each measured stream's first event pays for it);
#                          BENCH_SSE_TOGETHER=1 (default) streams all targets of a round at once, events
#                          interleaved, 0 one target after another in an order rotated each round;
#                          BENCH_SSE_FLOOR=1 (default) adds target "bare" to this section: bench/BareRelay.c,
#                          a blocking two-thread TCP relay built with cc, the machine's floor for one relay
#                          hop (skipped with a note when no C compiler is found; 0 leaves it out)
#   BENCH_WS_TURNS         turns per target of the websocket section (300; quick 60), after BENCH_WS_WARMUP unmeasured ones (100; quick 20);
#                          BENCH_WS_EVENTS events per streamed turn (20), BENCH_WS_INTERVAL ms between them (5)
#   BENCH_PROXY_ARGS       extra proxy flags, space-separated (e.g. "-limit-all=true -concurrency 4")
#   BENCH_PROXY_LOG        where the proxy's per-exchange log goes (default /dev/null)
#   BENCH_OUT              report path (default BENCHMARKS.md at the repo root; "-" = don't write)
#   BENCH_NOTE             a line quoted at the top of the report (e.g. "Trial run on a shared machine")
#   BENCH_ADMISSION_CONNECTIONS  wrk connections for the admission rows (16), BENCH_ADMISSION_ROUNDS
#                          runs per route, order alternating (2), BENCH_ADMISSION_WARMUP seconds per
#                          route before them (5; quick 3)
#   BENCH_QUEUE_N          clients of the queue section (10000), BENCH_QUEUE_DELAY upstream delay per
#                          request (5ms), BENCH_QUEUE_GAP pause between sends (1ms),
#                          BENCH_QUEUE_TIMEOUT seconds the client waits for all answers (300),
#                          BENCH_QUEUE_STALL seconds without a new answer before it gives up (30),
#                          BENCH_QUEUE_JAVA_OPTIONS extra JVM flags for that proxy only, appended
#                          after Shaper.java's own (e.g. "-Xmx512m"; default none)
#   BENCH_CLUSTER_CONNECTIONS  wrk concurrencies of the cluster overhead rows ("1 16"), BENCH_CLUSTER_BURST
#                          wrk connections per instance in the cluster burst (32)
#   BENCH_OBSERVE_ON_FLAGS extra flags of the observability section's "on" proxy, appended to its
#                          -metrics-bind (default "-tui", run under tmux; "" for metrics only); BENCH_OBSERVE_CONNECTIONS (16), BENCH_OBSERVE_ROUNDS (2)
#   BENCH_OTEL_CONNECTIONS wrk connections of the tracing section's rows (16), BENCH_OTEL_ROUNDS runs per proxy, order
#                          alternating (2): -otel (sampling 1.0, exporting to the fake upstream) vs no flags
#   BENCH_TOKENS_SECONDS   seconds per proxy of the tokens section (60), BENCH_TOKENS_AGENTS (8), BENCH_TOKENS_RPM (1000),
#                          BENCH_TOKENS_ITPM (100000), BENCH_TOKENS_OTPM (40000): the fixture account's limits
#   BENCH_CAPACITY_PHASES  capacity section: N:seconds phases of ProbeServer's /capacity ("6:60,12:40,4:40"; quick "6:20,12:15,4:15"),
#                          BENCH_CAPACITY_SETTLE seconds skipped per phase (20; quick 8), BENCH_CAPACITY_CLIENTS (32),
#                          BENCH_CAPACITY_LATENCY_MS the fixture's base first-byte delay (100)
#   BENCH_PRIORITY_BACKGROUND  priority section: background clients beside the 1 interactive one (16),
#                          BENCH_PRIORITY_SECONDS measured (30; quick 10), BENCH_PRIORITY_WARMUP (5; quick 3)
#   BENCH_FAIR_AGENTS      fairshare section: the swarm client's concurrent agents beside the 1 interactive client (32),
#                          BENCH_FAIR_SECONDS measured (60; quick 15), BENCH_FAIR_WARMUP (5; quick 3); not in the default
#                          BENCH_SECTIONS (BENCH_SECTIONS=fairshare runs it alone)
#   BENCH_STRICT=1         exit 1 when a target fails (default: exit 0 once the measurements ran)
#   BENCH_MAX_SECONDS      budget for the whole run (1500; quick 480)
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
# shellcheck source=bench/streams.sh
. "$BENCH/streams.sh"

QUICK=${BENCH_QUICK:-0}
if [ "$QUICK" = 1 ]; then
  dw=3 dd=4 de=20 dm=480 dwo=1 dset=1 daw=3 dsr=1 dsw=100 dss=0 dse=1
else
  dw=10 dd=12 de=100 dm=1500 dwo=2 dset=3 daw=5 dsr=3 dsw=20000 dss=2000 dse=10
fi
WARMUP=${BENCH_WARMUP:-$dw}
WARMUP_OTHERS=$dwo
DURATION=${BENCH_DURATION:-$dd}
CONNECTIONS=${BENCH_CONNECTIONS:-"1 16 128"}
THREADS=${BENCH_THREADS:-2}
BASELINE_REV=${BENCH_BASELINE_REV:-}
TARGETS=${BENCH_TARGETS:-"direct nginx proxy${BASELINE_REV:+ baseline}"}
SECTIONS=${BENCH_SECTIONS:-"warmup http sse admission routing routing_goodput observe otel transcode transcode_responses queue10k cluster cluster_kinds tokens capacity priority websocket"}
SSE_EVENTS=${BENCH_SSE_EVENTS:-$de}
SSE_INTERVAL=${BENCH_SSE_INTERVAL:-100ms}
SSE_PAD=${BENCH_SSE_PAD:-0}
SSE_ROUNDS=${BENCH_SSE_ROUNDS:-$dsr}
SSE_WARMUP=${BENCH_SSE_WARMUP:-$dsw}
SSE_WARMUP_STREAM_EVENTS=${BENCH_SSE_WARMUP_STREAM_EVENTS:-$dse}
SSE_WARMUP_STREAMS=${BENCH_SSE_WARMUP_STREAMS:-$dss}
SSE_TOGETHER=${BENCH_SSE_TOGETHER:-1}
SSE_FLOOR=${BENCH_SSE_FLOOR:-1}
PROXY_ARGS=${BENCH_PROXY_ARGS:-}
PROXY_LOG=${BENCH_PROXY_LOG:-/dev/null}
OUT=${BENCH_OUT:-$ROOT/BENCHMARKS.md}
NOTE=${BENCH_NOTE:-}
STRICT=${BENCH_STRICT:-0}
MAX_SECONDS=${BENCH_MAX_SECONDS:-$dm}
IDLE_SETTLE=$dset
CAPACITY_CLIENTS=${BENCH_CAPACITY_CLIENTS:-32}
CAPACITY_LATENCY_MS=${BENCH_CAPACITY_LATENCY_MS:-100}
# routing_goodput: agents, seconds per run, the queue wait that moves a request on, the death run
ROUTING_AGENTS=${BENCH_ROUTING_AGENTS:-8}
ROUTING_SECONDS=${BENCH_ROUTING_SECONDS:-60}
ROUTING_FALLBACK_AFTER=${BENCH_ROUTING_FALLBACK_AFTER:-50ms}
ROUTING_DEATH_SECONDS=${BENCH_ROUTING_DEATH_SECONDS:-20}
ROUTING_DEATH_AT=${BENCH_ROUTING_DEATH_AT:-10}
if [ "$QUICK" = 1 ]; then dcp="6:20,12:15,4:15" dcs=8 dps=10 dpw=3; else dcp="6:60,12:40,4:40" dcs=20 dps=30 dpw=5; fi
CAPACITY_PHASES=${BENCH_CAPACITY_PHASES:-$dcp}
CAPACITY_SETTLE=${BENCH_CAPACITY_SETTLE:-$dcs}
CAPACITY_TOTAL=$(echo "$CAPACITY_PHASES" | tr ',' '\n' | awk -F: '{ s += $2 } END { print s + 0 }')
PRIORITY_BACKGROUND=${BENCH_PRIORITY_BACKGROUND:-16}
PRIORITY_SECONDS=${BENCH_PRIORITY_SECONDS:-$dps}
PRIORITY_WARMUP=${BENCH_PRIORITY_WARMUP:-$dpw}
FAIR_AGENTS=${BENCH_FAIR_AGENTS:-32}
FAIR_SECONDS=${BENCH_FAIR_SECONDS:-$([ "$QUICK" = 1 ] && echo 15 || echo 60)}
FAIR_WARMUP=${BENCH_FAIR_WARMUP:-$dpw}
ADM_CONNECTIONS=${BENCH_ADMISSION_CONNECTIONS:-16}
ADM_ROUNDS=${BENCH_ADMISSION_ROUNDS:-2}
ADM_WARMUP=${BENCH_ADMISSION_WARMUP:-$daw}
QUEUE_N=${BENCH_QUEUE_N:-10000}
QUEUE_DELAY=${BENCH_QUEUE_DELAY:-5ms}
QUEUE_GAP=${BENCH_QUEUE_GAP:-1ms}
QUEUE_TIMEOUT=${BENCH_QUEUE_TIMEOUT:-300}
QUEUE_STALL=${BENCH_QUEUE_STALL:-30}
CL_CONNECTIONS=${BENCH_CLUSTER_CONNECTIONS:-"1 16"}
CL_BURST=${BENCH_CLUSTER_BURST:-32}
QUEUE_JAVA_OPTIONS=${BENCH_QUEUE_JAVA_OPTIONS:-}

declare -A M=()   # measurements: M[http.proxy.16.rps], M[sse.direct.p99_us], M[rss.idle.kb] ...
UP_PORT="" PROXY_PORT="" NGINX_PORT="" UP_PID="" PROXY_PID="" NGINX_PID="" NGINX_BIN=""
BASE_PORT="" BASE_PID="" BASE_ROOT="" BARE_PORT=""
ADM_PORT="" ADM_PID="" QPROXY_PORT="" QPROXY_PID="" QUP_PORT=""
LAUNCHED_PID="" LAUNCHED_PORT="" LAUNCHED_STARTED=""
LAUNCH_JBANG_OPTS=()
LAUNCH_PREFIX=()   # a command the next launch_proxy runs the proxy under (e.g. setsid)
HZ=$(getconf CLK_TCK)

# --- the three paths -----------------------------------------------------------------------
target_url() {
  case $1 in
    direct) echo "http://127.0.0.1:$UP_PORT" ;;
    nginx) echo "http://127.0.0.1:$NGINX_PORT" ;;
    proxy) echo "http://127.0.0.1:$PROXY_PORT" ;;
    baseline) echo "http://127.0.0.1:$BASE_PORT" ;;
    bare) echo "http://127.0.0.1:$BARE_PORT" ;;
    admission) echo "http://127.0.0.1:$ADM_PORT" ;;
    queue) echo "http://127.0.0.1:$QPROXY_PORT" ;;
    cluster-local) echo "http://127.0.0.1:$CL_LOCAL_PORT" ;;
    cluster-redis) echo "http://127.0.0.1:$CL_REDIS_PORT" ;;
    cluster-tls) echo "http://127.0.0.1:$CL_TLS_PORT" ;;
    cluster-rcluster) echo "http://127.0.0.1:$CL_RC_PORT" ;;
    burst1) echo "http://127.0.0.1:$CL_B1_PORT" ;;
    burst2) echo "http://127.0.0.1:$CL_B2_PORT" ;;
    obs-off) echo "http://127.0.0.1:$OBS_OFF_PORT" ;;
    obs-on) echo "http://127.0.0.1:$OBS_ON_PORT" ;;
    otel-off) echo "http://127.0.0.1:$OTEL_OFF_PORT" ;;
    otel-on) echo "http://127.0.0.1:$OTEL_ON_PORT" ;;
    transcode) echo "http://127.0.0.1:$TC_PORT" ;;
    routing) echo "http://127.0.0.1:$RT_PORT" ;;
    *) die "unknown target $1 (expected direct, nginx or proxy)" ;;
  esac
}

# The processes whose CPU a target's requests cost (direct: the upstream; nginx: master and worker).
target_pids() {
  case $1 in
    direct) echo "$UP_PID" ;;
    nginx) echo "$NGINX_PID" $(pgrep -P "$NGINX_PID") ;;
    proxy) echo "$PROXY_PID" ;;
    baseline) echo "$BASE_PID" ;;
    admission) echo "$ADM_PID" ;;
    routing) echo "$RT_PID" ;;
    queue) echo "$QPROXY_PID" ;;
    cluster-local) echo "$CL_LOCAL_PID" ;;
    cluster-redis) echo "$CL_REDIS_PID" ;;
    cluster-tls) echo "$CL_TLS_PID" ;;
    cluster-rcluster) echo "$CL_RC_PID" ;;
    burst1) echo "$CL_B1_PID" ;;
    burst2) echo "$CL_B2_PID" ;;
    obs-off) echo "$OBS_OFF_PID" ;;
    obs-on) echo "$OBS_ON_PID" ;;
    otel-off) echo "$OTEL_OFF_PID" ;;
    otel-on) echo "$OTEL_ON_PID" ;;
    transcode) echo "$TC_PID" ;;
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

# launch_upstream LOG [SCRIPT MODE...]: starts a fake upstream (bench/FakeUpstream.java, or SCRIPT with its
# leading words, e.g. "bench/StreamHerd.java upstream") on a free port; sets LAUNCHED_PID and LAUNCHED_PORT.
launch_upstream() {
  local log=$1 pid i port=""
  shift
  [ $# -gt 0 ] || set -- bench/FakeUpstream.java
  : >"$log"
  ./jbang "$@" -port 0 >"$log" 2>&1 &
  pid=$!
  own "$pid"
  for ((i = 0; i < 600; i++)); do
    port=$(sed -n 's/^[a-z -]* listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$log")
    [ -n "$port" ] && break
    alive "$pid" || die "upstream $1 exited: $(tail -5 "$log")"
    sleep 0.1
  done
  [ -n "$port" ] || die "upstream $1 did not start within 60 s"
  wait_http "http://127.0.0.1:$port/1k" "$pid" 10 || die "upstream $1 does not answer /1k"
  LAUNCHED_PID=$pid LAUNCHED_PORT=$port
}

start_upstream() {
  launch_upstream "$RES/upstream.log"
  UP_PID=$LAUNCHED_PID UP_PORT=$LAUNCHED_PORT
  log "fake upstream pid $UP_PID on 127.0.0.1:$UP_PORT"
}

# launch_proxy NAME UPSTREAM_URL LOG FLAG...: starts Shaper.java (of LAUNCH_ROOT, default this checkout) on a free port with the flags (and
# the jbang options in LAUNCH_JBANG_OPTS, under LAUNCH_PREFIX if set), stdout to LOG and stderr to RES/NAME.err; sets LAUNCHED_PORT, LAUNCHED_PID (the JVM, as its
# health answer reports it: RSS is read there) and LAUNCHED_STARTED (the PID to stop).
launch_proxy() {
  local name=$1 upstream=$2 plog=$3 attempt port pid health hpid
  shift 3
  for attempt in 1 2 3; do
    port=$(free_port) || die "no free port"
    # upstream "-": the flags name their providers themselves (--provider sections)
    local up=(-upstream "$upstream")
    [ "$upstream" = - ] && up=()
    "${LAUNCH_PREFIX[@]}" "$ROOT/jbang" "${LAUNCH_JBANG_OPTS[@]}" "${LAUNCH_ROOT:-$ROOT}/Shaper.java" "${up[@]}" -bind "127.0.0.1:$port" "$@" >"$plog" 2>"$RES/$name.err" &
    pid=$!
    own "$pid"
    if wait_http "http://127.0.0.1:$port/__shaper/health" "$pid" 120; then
      health=$(curl -fs --max-time 2 "http://127.0.0.1:$port/__shaper/health")
      hpid=$(printf '%s' "$health" | sed -n 's/.*"pid":\([0-9]*\).*/\1/p')
      [ "$hpid" = "$pid" ] || log "note: $name health reports pid $hpid, started pid $pid (RSS is read from $hpid)"
      [ -r "/proc/$hpid/status" ] || die "$name pid $hpid has no /proc entry"
      LAUNCHED_PORT=$port LAUNCHED_PID=$hpid LAUNCHED_STARTED=$pid
      return 0
    fi
    log "$name did not come up on port $port (attempt $attempt): $(tail -3 "$RES/$name.err")"
    stop_pid "$pid"
  done
  die "$name failed to start (see $RES/$name.err)"
}

start_proxy() {
  # shellcheck disable=SC2086 # PROXY_ARGS is a space-separated flag list
  launch_proxy proxy "$(target_url direct)" "$PROXY_LOG" $PROXY_ARGS
  PROXY_PORT=$LAUNCHED_PORT PROXY_PID=$LAUNCHED_PID
  log "proxy pid $PROXY_PID on 127.0.0.1:$PROXY_PORT"
}

# The proxy of BENCH_BASELINE_REV, exported from git into TMP and started with the same flags.
start_baseline() {
  [ -n "$BASELINE_REV" ] || return 0
  # shellcheck disable=SC2086 # PROXY_ARGS is a space-separated flag list
  LAUNCH_ROOT=$BASE_ROOT launch_proxy baseline "$(target_url direct)" /dev/null $PROXY_ARGS
  BASE_PORT=$LAUNCHED_PORT BASE_PID=$LAUNCHED_PID
  log "baseline ($BASELINE_REV) pid $BASE_PID on 127.0.0.1:$BASE_PORT"
}

# start_bare: builds bench/BareRelay.c and starts it in front of the upstream (target "bare", SSE only).
start_bare() {
  local cc attempt port pid exe=$TMP/bare-relay log=$RES/bare-relay.out
  [ "$SSE_FLOOR" = 1 ] && [[ " $SECTIONS " == *" sse "* ]] || return 0
  cc=$(command -v cc || command -v gcc) || { log "sse: no C compiler, so no bare-relay floor row"; return 0; }
  "$cc" -O2 -pthread -o "$exe" "$BENCH/BareRelay.c" >>"$RES/build.log" 2>&1 || { log "sse: bench/BareRelay.c did not build (see $RES/build.log)"; return 0; }
  for attempt in 1 2 3; do
    port=$(free_port) || die "no free port"
    "$exe" "$port" "$UP_PORT" >"$log" 2>&1 &
    pid=$!
    own "$pid"
    if wait_http "http://127.0.0.1:$port/1k" "$pid" 10; then
      BARE_PORT=$port
      log "bare relay pid $pid on 127.0.0.1:$BARE_PORT"
      return 0
    fi
    log "bare relay did not come up on port $port (attempt $attempt): $(tail -1 "$log")"
    stop_pid "$pid"
  done
  log "sse: the bare relay did not start, so no floor row"
}

start_nginx() {
  launch_nginx nginx "$UP_PORT" 4096
  NGINX_PORT=$LAUNCHED_PORT NGINX_PID=$LAUNCHED_PID
}

# The descriptors nginx asks for: one per connection (either side) plus its files, capped at the hard limit.
nofile_for_nginx() {
  local want=$(($1 + 64)) hard
  hard=$(ulimit -Hn)
  if [ "$hard" != unlimited ] && [ "$want" -gt "$hard" ]; then want=$hard; fi
  echo "$want"
}

# launch_nginx NAME UPSTREAM_PORT WORKER_CONNECTIONS: nginx (1 worker) in front of 127.0.0.1:UPSTREAM_PORT
# on a free port; sets LAUNCHED_PORT and LAUNCHED_PID (the master; its worker is its child).
launch_nginx() {
  local name=$1 upstream_port=$2 workers=$3 attempt port pid dir=$TMP/$1
  NGINX_BIN=$(command -v nginx || echo /usr/sbin/nginx)
  mkdir -p "$dir"
  for attempt in 1 2 3; do
    port=$(free_port) || die "no free port"
    # Keep-alive both ways with no per-connection request cap, so nginx and the proxy do the same work.
    cat >"$dir/nginx.conf" <<EOF
worker_processes 1;
worker_rlimit_nofile $(nofile_for_nginx "$workers");
daemon off;
pid $dir/nginx.pid;
error_log $RES/$name-error.log warn;
events { worker_connections $workers; }
http {
  access_log off;
  keepalive_requests 1000000;
  client_body_temp_path $dir/client_body;
  proxy_temp_path $dir/proxy;
  fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi;
  scgi_temp_path $dir/scgi;
  upstream fake {
    server 127.0.0.1:$upstream_port;
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
      proxy_read_timeout 1h;
    }
  }
}
EOF
    "$NGINX_BIN" -p "$dir/" -c "$dir/nginx.conf" -e "$RES/$name-error.log" >>"$RES/$name.out" 2>&1 &
    pid=$!
    own "$pid"
    if wait_http "http://127.0.0.1:$port/1k" "$pid" 10; then
      LAUNCHED_PORT=$port LAUNCHED_PID=$pid
      log "$name pid $pid on 127.0.0.1:$port"
      return 0
    fi
    log "$name did not come up on port $port (attempt $attempt)"
    stop_pid "$pid"
  done
  die "$name failed to start (see $RES/$name-error.log)"
}

# --- measurements --------------------------------------------------------------------------
# wrk_run NAME TARGET CONNECTIONS SECONDS [PATH]: loads PATH (default /1k); prints the WRK_RESULT
# line plus cpu_us_per_req (CPU of the target's processes per request) and upstream_conns
# (connections the upstream accepted meanwhile); raw output kept in RES.
wrk_run() {
  local name=$1 target=$2 c=$3 secs=$4 path=${5:-/1k} out line pids cpu0 cpu1 conns0 conns1
  out="$RES/wrk-$name-$target-c$c.txt"
  pids=$(target_pids "$target")
  # shellcheck disable=SC2086
  cpu0=$(cpu_ticks $pids)
  conns0=$(upstream_stat connections)
  # wrk refuses more threads than connections.
  if ! run_bounded $((secs + 30)) wrk -t"$((THREADS < c ? THREADS : c))" -c"$c" -d"${secs}s" --timeout 5s --latency \
      -s "${WRK_SCRIPT:-$BENCH/wrk-report.lua}" "$(target_url "$target")$path" >"$out" 2>&1; then
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
    case $t in
      proxy) ;;
      baseline) wrk_run warmup "$t" "$c" "$WARMUP" >/dev/null || die "warm-up of $t failed" ;; # a JVM too: same JIT warm-up
      *) wrk_run warmup "$t" "$c" "$WARMUP_OTHERS" >/dev/null || die "warm-up of $t failed" ;;
    esac
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
    if [ "$c" = 1 ]; then
      local add99=$(( ${M[http.proxy.1.p99_us]} - ${M[http.direct.1.p99_us]} ))
      check "added p99 at c=1 (proxy − direct)" "≤ 1 ms" "$(fmt_us "$add99")" "$(passfail "$add99 <= 1000")"
    fi
  fi
  local b=${M[http.baseline.$1.rps]:-}
  if [ -n "$p" ] && [ -n "$b" ]; then
    md "- c=$c: proxy / baseline ($BASELINE_REV) RPS = **$(calc "$p / $b")×**; p50 $(fmt_us "${M[http.proxy.$c.p50_us]}") vs $(fmt_us "${M[http.baseline.$c.p50_us]}"), p99 $(fmt_us "${M[http.proxy.$c.p99_us]}") vs $(fmt_us "${M[http.baseline.$c.p99_us]}")"
  fi
  # c=1 is latency-bound: its latency is checked above, its RPS ratio is only reported
  [ "$c" = 1 ] && return
  if [ -z "$p" ] || [ -z "$n" ]; then
    check "proxy RPS ≥ 0.6× nginx, c=$c" "≥ 0.60×" "not measured" "n/a"
    return
  fi
  r=$(calc "$p / $n")
  M[ratio.rps.$c]=$r
  md "- c=$c: proxy / nginx RPS = **${r}×** ($(fmt_rps "$p") / $(fmt_rps "$n"))"
  result=$(passfail "$r >= 0.6")
  [ "${M[http.proxy.$c.errors]}" = 0 ] || result="FAIL (${M[http.proxy.$c.errors]} errors)"
  check "proxy RPS ≥ 0.6× nginx, c=$c" "≥ 0.60×" "${r}× ($(fmt_rps "$p") vs $(fmt_rps "$n"))" "$result"
}

# The probe's warm-up per target (see BENCH_SSE_WARMUP*), its time bound and its description.
sse_warmup_args() {
  printf '%s ' -warmup "$SSE_WARMUP" -warmup-interval 0ms -warmup-streams "$SSE_WARMUP_STREAMS" -warmup-stream-events "$SSE_WARMUP_STREAM_EVENTS"
  if [ "$SSE_TOGETHER" = 1 ]; then printf '%s ' -together; fi
}
sse_rounds_words() {
  if [ "$SSE_TOGETHER" = 1 ]; then
    printf '%s' "each round streams every target at once, each stream started a fraction of the interval after the last (order rotated each round), so their events interleave and a stall of the machine lands on all targets alike"
  else
    printf '%s' "the targets one after another, in an order rotated each round"
  fi
}
sse_warmup_seconds() { echo $((5 + SSE_WARMUP / 2000 + SSE_WARMUP_STREAMS * (SSE_WARMUP_STREAM_EVENTS + 5) / 500)); }
sse_warmup_words() {
  printf '%s' "Each path is warmed first, unmeasured, as a proxy that has served streams for a while: $SSE_WARMUP_STREAMS streams of $SSE_WARMUP_STREAM_EVENTS events 1 ms apart (the code that starts a stream and the code that waits for the next event) and one of $SSE_WARMUP events sent back to back (the per-event copy)."
}

sse_floor_words() {
  [ -n "$BARE_PORT" ] || return 0
  printf '%s' " Row bare is bench/BareRelay.c: a TCP relay in C with one blocking thread per direction and no HTTP parsing, the least one more process on the path can cost on this machine."
}
# sse_floor_added: "; added p99 in the same run: nginx …, bare …" for those of the two rows that were measured.
sse_floor_added() {
  local t parts=""
  for t in nginx bare; do
    [ -n "${M[sse.$t.p99_us]:-}" ] && [ -n "${M[sse.direct.p99_us]:-}" ] || continue
    parts+="${parts:+, }$t $(fmt_diff_us "${M[sse.$t.p99_us]}" "${M[sse.direct.p99_us]}")"
  done
  if [ -n "$parts" ]; then printf '%s' "; added p99 in the same run: $parts"; fi
}

section_sse() {
  local args=() t line label bound interval_ms targets="$TARGETS${BARE_PORT:+ bare}"
  for t in $targets; do args+=("$t=$(target_url "$t")"); done
  interval_ms=$(printf '%s' "$SSE_INTERVAL" | awk '/ms$/ { print $0 + 0; next } /us$|µs$/ { print 1; next } /s$/ { print $0 * 1000; next } { print 1000 }')
  bound=$((60 + ${#args[@]} * (SSE_ROUNDS * (SSE_EVENTS * interval_ms / 1000 + 5) + $(sse_warmup_seconds))))
  log "sse: ${SSE_ROUNDS} × ${SSE_EVENTS} events every $SSE_INTERVAL through: $targets (bound ${bound}s)"
  # shellcheck disable=SC2046 # the warm-up flags are separate words
  run_bounded "$bound" ./jbang bench/SseProbe.java -events "$SSE_EVENTS" -interval "$SSE_INTERVAL" -pad "$SSE_PAD" \
    -rounds "$SSE_ROUNDS" $(sse_warmup_args) -raw "$RES" "${args[@]}" >"$RES/sse.txt" 2>"$RES/sse.err" || log "sse probe failed: $(tail -3 "$RES/sse.err")"
  md "## SSE: per-event delay" "" \
    "\`GET /sse\`: $SSE_EVENTS events $SSE_INTERVAL apart, each stamped with its send time (epoch µs) by the upstream;" \
    "delay = arrival at the probe − send time, nearest-rank percentiles. $(sse_warmup_words)" \
    "$SSE_ROUNDS stream(s) per target; $(sse_rounds_words); percentiles are over all of a target's events," \
    "and the last column lists each stream's own p99 (one 100-event stream's p99 is its second-worst event).$(sse_floor_words)" "" \
    "| target | events | p50 | p90 | p99 | max | added p50 (vs direct) | added p99 (vs direct) | p99 per stream |" \
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for t in $targets; do
    line=$(grep -m1 "^SSE_RESULT label=$t " "$RES/sse.txt")
    if [ -z "$line" ] || [ -n "$(kv error "$line")" ]; then
      md "| $t | failed: $(kv error "$line") | | | | | | | |"
      continue
    fi
    for k in p50_us p90_us p99_us max_us events round_p99_us; do M[sse.$t.$k]=$(kv "$k" "$line"); done
  done
  for t in $targets; do
    [ -n "${M[sse.$t.p50_us]:-}" ] || continue
    local a50="" a99=""
    if [ -n "${M[sse.direct.p50_us]:-}" ] && [ "$t" != direct ]; then
      a50=$(fmt_diff_us "${M[sse.$t.p50_us]}" "${M[sse.direct.p50_us]}")
      a99=$(fmt_diff_us "${M[sse.$t.p99_us]}" "${M[sse.direct.p99_us]}")
    fi
    local per="" r
    for r in ${M[sse.$t.round_p99_us]//,/ }; do per+="${per:+, }$(fmt_us "$r")"; done
    md "| $t | ${M[sse.$t.events]} | $(fmt_us "${M[sse.$t.p50_us]}") | $(fmt_us "${M[sse.$t.p90_us]}") | $(fmt_us "${M[sse.$t.p99_us]}") | $(fmt_us "${M[sse.$t.max_us]}") | $a50 | $a99 | $per |"
    log "sse: $t p50=$(fmt_us "${M[sse.$t.p50_us]}") p99=$(fmt_us "${M[sse.$t.p99_us]}")"
  done
  md ""
  if [ -n "${M[sse.proxy.p99_us]:-}" ] && [ -n "${M[sse.direct.p99_us]:-}" ]; then
    local add50 add99
    add50=$(( ${M[sse.proxy.p50_us]} - ${M[sse.direct.p50_us]} ))
    add99=$(( ${M[sse.proxy.p99_us]} - ${M[sse.direct.p99_us]} ))
    M[sse.added.p50_us]=$add50; M[sse.added.p99_us]=$add99
    md "- added by the proxy: p50 **$(fmt_us "$add50")**, p99 **$(fmt_us "$add99")**$(sse_floor_added)" ""
    check "added SSE delay p99 (proxy − direct)" "≤ 1 ms" "$(fmt_us "$add99") (p50 $(fmt_us "$add50"))$(sse_floor_added)" "$(passfail "$add99 <= 1000")"
  else
    check "added SSE delay p99 (proxy − direct)" "≤ 1 ms" "not measured" "n/a"
  fi
}

# --- admission overhead --------------------------------------------------------------------
# A proxy of its own with one limited route whose limit (64) exceeds the connections, so no
# request ever waits: limited vs passthrough rows differ only by taking and returning a slot.
section_admission() {
  local c=$ADM_CONNECTIONS limit round order route path line rps p50 p99 errs started
  limit=$((c > 64 ? c : 64))
  launch_proxy admission-proxy "$(target_url direct)" /dev/null -limit "GET /limited/1k:$limit" -release-cooldown 0
  ADM_PORT=$LAUNCHED_PORT ADM_PID=$LAUNCHED_PID started=$LAUNCHED_STARTED
  log "admission: proxy pid $ADM_PID on 127.0.0.1:$ADM_PORT (-limit 'GET /limited/1k:$limit' -release-cooldown 0)"
  for route in limited passthrough; do
    wrk_run admission-warmup-$route admission "$c" "$ADM_WARMUP" "$(adm_path $route)" >/dev/null ||
      log "admission: warm-up of $route failed"
  done
  md "## Admission overhead: limited vs passthrough route" "" \
    "One proxy process, started for this section: \`-limit 'GET /limited/1k:$limit' -release-cooldown 0\` (default pool otherwise)." \
    "\`GET /limited/1k\` takes and returns a slot of a $limit-slot limiter; \`GET /1k\` is passthrough; the upstream answers both with the same 1 KiB body." \
    "$limit slots ≥ $c connections, so no request ever waits: the difference is the cost of admission itself." \
    "wrk, c=$c, $THREADS threads, ${DURATION}s per run, after ${ADM_WARMUP}s of warm-up per route; rounds alternate the order (ABBA) to cancel drift." "" \
    "| round | route | RPS | p50 | p99 | max | CPU/req | errors |" "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
  for ((round = 1; round <= ADM_ROUNDS; round++)); do
    if ((round % 2 == 1)); then order="passthrough limited"; else order="limited passthrough"; fi
    for route in $order; do
      path=$(adm_path "$route")
      log "admission: round $round $route ($path) at c=$c for ${DURATION}s"
      if ! line=$(wrk_run "admission-$route-r$round" admission "$c" "$DURATION" "$path"); then
        md "| $round | $route | failed | | | | | |"
        continue
      fi
      rps=$(kv rps "$line"); p50=$(kv p50_us "$line"); p99=$(kv p99_us "$line")
      errs=$(($(kv socket_errors "$line") + $(kv non2xx "$line")))
      M[adm.$route.n]=$((${M[adm.$route.n]:-0} + 1))
      M[adm.$route.rps]=$(calc "${M[adm.$route.rps]:-0} + $rps" 1)
      M[adm.$route.p50_us]=$((${M[adm.$route.p50_us]:-0} + p50))
      M[adm.$route.p99_us]=$((${M[adm.$route.p99_us]:-0} + p99))
      M[adm.$route.errors]=$((${M[adm.$route.errors]:-0} + errs))
      md "| $round | $route | $(fmt_rps "$rps") | $(fmt_us "$p50") | $(fmt_us "$p99") | $(fmt_us "$(kv max_us "$line")") | $(fmt_us "$(kv cpu_us_per_req "$line")") | $errs |"
      log "admission: $route rps=$(fmt_rps "$rps") p50=$(fmt_us "$p50") p99=$(fmt_us "$p99") errors=$errs"
    done
  done
  md ""
  rss_of "$ADM_PID" "admission proxy after load"
  stop_pid "$started"
  ADM_PID=""
  local n_l=${M[adm.limited.n]:-0} n_p=${M[adm.passthrough.n]:-0}
  if [ "$n_l" = 0 ] || [ "$n_p" = 0 ]; then
    md "- not measured: a route has no successful run" ""
    check "admission overhead (limited / passthrough RPS, c=$c)" "reported" "not measured" "n/a"
    return
  fi
  local rl rp ratio a50 a99
  rl=$(calc "${M[adm.limited.rps]} / $n_l" 1); rp=$(calc "${M[adm.passthrough.rps]} / $n_p" 1)
  ratio=$(calc "$rl / $rp")
  a50=$(( ${M[adm.limited.p50_us]} / n_l - ${M[adm.passthrough.p50_us]} / n_p ))
  a99=$(( ${M[adm.limited.p99_us]} / n_l - ${M[adm.passthrough.p99_us]} / n_p ))
  M[adm.ratio]=$ratio; M[adm.added.p50_us]=$a50; M[adm.added.p99_us]=$a99
  md "- mean of $n_l run(s) per route: limited $(fmt_rps "$rl") RPS, passthrough $(fmt_rps "$rp") RPS: limited / passthrough = **${ratio}×**" \
    "- latency added by admission (mean limited − mean passthrough): p50 **$(fmt_us "$a50")**, p99 **$(fmt_us "$a99")**" ""
  local errs_total=$(( ${M[adm.limited.errors]} + ${M[adm.passthrough.errors]} ))
  # No target for the overhead itself: the row records it; errors fail it.
  check "admission overhead (limited / passthrough RPS, c=$c)" "reported; no errors" \
    "${ratio}×, added p50 $(fmt_us "$a50"), p99 $(fmt_us "$a99"), $errs_total errors" \
    "$([ "$errs_total" = 0 ] && echo PASS || echo FAIL)"
}

adm_path() { case $1 in limited) echo /limited/1k ;; passthrough) echo /1k ;; esac; }

# --- routing: the cost of the routed mount on the passthrough path ------------------------------
# One proxy, its provider at /p and a routed mount at /r whose one route ('*') names that provider:
# GET /r/1k reads the (empty) body for a model, picks the route and serves the same passthrough as
# GET /p/1k. Rounds alternate the order (ABBA); the difference of the means is what routing adds.
section_routing() {
  local c=$ADM_CONNECTIONS round order mount line rps p50 p99 errs started
  launch_proxy routing-proxy "$(target_url direct)" /dev/null -prefix /p -route-prefix /r -model-route '*=default'
  RT_PORT=$LAUNCHED_PORT RT_PID=$LAUNCHED_PID started=$LAUNCHED_STARTED
  rss_of "$LAUNCHED_PID" "routing proxy at start"
  for mount in p r; do
    wrk_run routing-warmup-$mount routing "$c" "$ADM_WARMUP" "/$mount/1k" >/dev/null || log "routing: warm-up of /$mount failed"
  done
  md "## Routing overhead: the routed mount vs the provider's own mount" "" \
    "One proxy process: \`-prefix /p -route-prefix /r -model-route '*=default'\`. \`GET /r/1k\` is routed by model (no body: the \`*\` route) to the provider that also serves \`GET /p/1k\`; both pass through to the same 1 KiB upstream answer." \
    "wrk, c=$c, $THREADS threads, ${DURATION}s per run, after ${ADM_WARMUP}s of warm-up per mount; rounds alternate the order (ABBA)." "" \
    "| round | mount | RPS | p50 | p99 | max | CPU/req | errors |" "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
  for ((round = 1; round <= ADM_ROUNDS; round++)); do
    if ((round % 2 == 1)); then order="p r"; else order="r p"; fi
    for mount in $order; do
      if ! line=$(wrk_run "routing-$mount-r$round" routing "$c" "$DURATION" "/$mount/1k"); then
        md "| $round | /$mount | failed | | | | | |"
        continue
      fi
      rps=$(kv rps "$line"); p50=$(kv p50_us "$line"); p99=$(kv p99_us "$line")
      errs=$(($(kv socket_errors "$line") + $(kv non2xx "$line")))
      M[rt.$mount.n]=$((${M[rt.$mount.n]:-0} + 1))
      M[rt.$mount.rps]=$(calc "${M[rt.$mount.rps]:-0} + $rps" 1)
      M[rt.$mount.p50_us]=$((${M[rt.$mount.p50_us]:-0} + p50))
      M[rt.$mount.errors]=$((${M[rt.$mount.errors]:-0} + errs))
      md "| $round | /$mount | $(fmt_rps "$rps") | $(fmt_us "$p50") | $(fmt_us "$p99") | $(fmt_us "$(kv max_us "$line")") | $(fmt_us "$(kv cpu_us_per_req "$line")") | $errs |"
    done
  done
  md ""
  stop_pid "$started"
  local n_p=${M[rt.p.n]:-0} n_r=${M[rt.r.n]:-0} added
  if [ "$n_p" = 0 ] || [ "$n_r" = 0 ]; then
    md "- not measured: a mount has no successful run" ""
    check "routing overhead (added p50, c=$c)" "<= 30 us" "not measured" "n/a"
    return
  fi
  added=$(( ${M[rt.r.p50_us]} / n_r - ${M[rt.p.p50_us]} / n_p ))
  md "- mean of $n_r run(s) per mount: routed $(fmt_rps "$(calc "${M[rt.r.rps]} / $n_r" 1)") RPS, own mount $(fmt_rps "$(calc "${M[rt.p.rps]} / $n_p" 1)") RPS; p50 added by routing **$(fmt_us "$added")**" ""
  check "routing overhead (added p50, c=$c)" "<= 30 us" "$(fmt_us "$added"), $(( ${M[rt.r.errors]} + ${M[rt.p.errors]} )) errors" \
    "$(passfail "$added <= 30")"
}

# rss_of PID LABEL: a row in the memory table for a process other than the main proxy.
rss_of() {
  local kb hwm
  kb=$(proc_kb "$1" VmRSS); hwm=$(proc_kb "$1" VmHWM)
  [ -n "$kb" ] || return 0
  RSS_ROWS+=("| $2 | $(fmt_mb "$kb") | $(fmt_mb "$hwm") |")
}

# --- tokens: budget-paced admission against an account's per-minute limits --------------------
# ProbeServer's /ratelimited enforces RPM/ITPM/OTPM like Anthropic (429 + retry-after when a bucket
# is empty). bench/TokenAgents.java runs 8 agents of mixed-size Messages requests (some streaming)
# through each proxy setup in turn, each for BENCH_TOKENS_SECONDS against fresh buckets: plain,
# with static budgets (95 % of the account's, the usual safety margin), with -budget-from-headers,
# and two instances sharing the static budgets through a redis-server of their own (half the
# agents on each; skipped without redis-server). Reported: the upstream's 429s (counted by the
# fixture) and the input tokens per minute it charged, against what its bucket could give over
# the run as the agents measure it (from their first request until the last one returned: a paced
# run's queued requests finish after the agents stop sending), full at start plus the refill.
TOK_SECONDS=${BENCH_TOKENS_SECONDS:-60}
TOK_AGENTS=${BENCH_TOKENS_AGENTS:-8}
TOK_RPM=${BENCH_TOKENS_RPM:-1000}
TOK_ITPM=${BENCH_TOKENS_ITPM:-100000}
TOK_OTPM=${BENCH_TOKENS_OTPM:-40000}

section_tokens() {
  local pport plog="$RES/tokens-probe.log" ppid mode line counts rejected input output avail used started i
  local t0 t1 elapsed urls rport="" rpid="" modes="plain static headers"
  local -a starts
  pport=$(free_port) || die "no free port"
  ./jbang ProbeServer.java -port "$pport" -rl-rpm "$TOK_RPM" -rl-itpm "$TOK_ITPM" -rl-otpm "$TOK_OTPM" -rl-output 400 >"$plog" 2>&1 &
  ppid=$!
  own "$ppid"
  wait_http "http://127.0.0.1:$pport/ok" "$ppid" 120 || die "ProbeServer did not start (see $plog)"
  log "tokens: ProbeServer pid $ppid on 127.0.0.1:$pport (-rl-rpm $TOK_RPM -rl-itpm $TOK_ITPM -rl-otpm $TOK_OTPM)"
  if command -v redis-server >/dev/null 2>&1; then
    rport=$(free_port) || die "no free port"
    redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no --dir "$TMP" >"$RES/tokens-redis.log" 2>&1 &
    rpid=$!
    own "$rpid"
    for ((i = 0; i < 100; i++)); do
      [ "$(redis-cli -p "$rport" ping 2>/dev/null)" = PONG ] && break
      sleep 0.1
    done
    modes="$modes redis"
  else
    log "tokens: no redis-server: the shared-budget row is skipped"
  fi
  local s_rpm s_itpm s_otpm
  s_rpm=$((TOK_RPM * 95 / 100)) s_itpm=$((TOK_ITPM * 95 / 100)) s_otpm=$((TOK_OTPM * 95 / 100))
  md "## Token budgets: $TOK_AGENTS agents against an account's per-minute limits" "" \
    "ProbeServer \`/ratelimited\` enforces RPM $TOK_RPM, ITPM $TOK_ITPM, OTPM $TOK_OTPM (buckets refill continuously, full at start; 429 + retry-after when empty)." \
    "\`bench/TokenAgents.java\`: $TOK_AGENTS agents send Messages requests back to back for ${TOK_SECONDS}s (prompts of 2–40 KiB, \`max_tokens\` 64–512, every third streaming; a refused request waits its retry-after, 1–10 s)." \
    "Each setup runs against fresh buckets; *run* lasts from the agents' first request until the last agent returned (a paced run's queued requests finish after the agents stop sending); *available* is what the ITPM bucket could give in that time (full at start plus the refill). *redis*: two instances with the static budgets sharing them through one redis-server, half the agents on each." "" \
    "| proxy | flags | run | agent requests | answered | refused to agents | upstream 429s | input tokens/min | output tokens/min | ITPM used of available |" \
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for mode in $modes; do
    local flags=()
    case $mode in
      static) flags=(-rpm "$s_rpm" -itpm "$s_itpm" -otpm "$s_otpm") ;;
      headers) flags=(-budget-from-headers) ;;
      redis) flags=(-rpm "$s_rpm" -itpm "$s_itpm" -otpm "$s_otpm" -limiter-backend "redis://127.0.0.1:$rport" -limiter-namespace bench-tokens) ;;
    esac
    starts=() urls=""
    for i in $( [ "$mode" = redis ] && echo 1 2 || echo 1 ); do
      # a paced queue of 8 agents holds a large request for longer than the default 30s
      launch_proxy "tokens-$mode-$i" "http://127.0.0.1:$pport/ratelimited" /dev/null -retry 0 -queue-timeout 3m "${flags[@]}"
      starts+=("$LAUNCHED_STARTED")
      urls="${urls:+$urls,}http://127.0.0.1:$LAUNCHED_PORT/v1/messages"
    done
    curl -fs --max-time 5 -X POST "http://127.0.0.1:$pport/__probe/reset" >/dev/null || log "tokens: probe reset failed"
    log "tokens: $mode (${flags[*]:-no budget}) for ${TOK_SECONDS}s"
    t0=$(date +%s.%N)
    line=$(run_bounded $((TOK_SECONDS + 180)) ./jbang bench/TokenAgents.java -url "$urls" \
      -agents "$TOK_AGENTS" -seconds "$TOK_SECONDS" 2>>"$RES/tokens-agents.err" | grep '^TOKENS_RESULT') || line=""
    t1=$(date +%s.%N)
    counts=$(curl -fs --max-time 5 "http://127.0.0.1:$pport/__probe/ratelimited" || echo "")
    for started in "${starts[@]}"; do stop_pid "$started"; done
    if [ -z "$line" ] || [ -z "$counts" ]; then
      md "| $mode | ${flags[*]:-} | failed | | | | | | | |"
      check "tokens: $mode" "measured" "failed (see $RES/tokens-agents.err)" "FAIL"
      continue
    fi
    elapsed=$(kv elapsed "$line")
    [ -n "$elapsed" ] || elapsed=$(calc "$t1 - $t0" 1)
    rejected=$(printf '%s' "$counts" | sed -n 's/.*"rejected":\([0-9]*\).*/\1/p')
    input=$(printf '%s' "$counts" | sed -n 's/.*"input_tokens":\([0-9]*\).*/\1/p')
    output=$(printf '%s' "$counts" | sed -n 's/.*"output_tokens":\([0-9]*\).*/\1/p')
    avail=$(calc "$TOK_ITPM * (1 + $elapsed / 60)" 0)
    used=$(calc "100 * $input / $avail" 1)
    M[tok.$mode.rejected]=$rejected M[tok.$mode.used]=$used
    md "| $mode | ${flags[*]:-} | ${elapsed}s | $(kv sent "$line") | $(kv ok "$line") | $(( $(kv s429 "$line") + $(kv other "$line") + $(kv errors "$line") )) | $rejected | $(calc "$input * 60 / $elapsed" 0) | $(calc "$output * 60 / $elapsed" 0) | ${used} % |"
    log "tokens: $mode upstream_429=$rejected input=$input output=$output run=${elapsed}s used=${used}% ($line)"
  done
  md ""
  stop_pid "$ppid"
  [ -z "$rpid" ] || stop_pid "$rpid"
  for mode in static headers redis; do
    [ -n "${M[tok.$mode.used]:-}" ] || continue
    check "tokens: $mode budgets (upstream 429s, ITPM used)" "no upstream 429; ≥ 90 % of the budget used" \
      "${M[tok.$mode.rejected]} 429s, ${M[tok.$mode.used]} % used (plain: ${M[tok.plain.rejected]:-?} 429s)" \
      "$(passfail "${M[tok.$mode.rejected]} == 0 && ${M[tok.$mode.used]} >= 90")"
  done
}

# --- cluster mode --------------------------------------------------------------------------
# A redis-server of its own; two proxies in front of the main upstream, identical but for
# -limiter-backend (in-process vs Redis), loaded in alternating order on a limited route wide
# enough that nobody waits: the difference is what the Redis round trips add per request. Then
# two Redis-backed instances sharing -concurrency 2 take a burst together in front of an upstream
# of their own, which reports its peak in-flight count.
section_cluster() {
  local limit=64 rport rpid up_started l_started r_started b1_started b2_started c round order kind line rps p50 p99 errs
  ensure_tools redis-server:redis-server
  rport=$(free_port) || die "no free port"
  redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no --dir "$TMP" >"$RES/cluster-redis.log" 2>&1 &
  rpid=$!
  own "$rpid"
  local i
  for ((i = 0; i < 100; i++)); do
    [ "$(redis-cli -p "$rport" ping 2>/dev/null)" = PONG ] && break
    alive "$rpid" || die "redis-server exited: $(tail -3 "$RES/cluster-redis.log")"
    sleep 0.1
  done
  local redis="redis://127.0.0.1:$rport"
  log "cluster: redis-server pid $rpid on 127.0.0.1:$rport"
  launch_proxy cluster-local "$(target_url direct)" /dev/null -limit "GET /limited/1k:$limit" -release-cooldown 0
  CL_LOCAL_PORT=$LAUNCHED_PORT CL_LOCAL_PID=$LAUNCHED_PID l_started=$LAUNCHED_STARTED
  launch_proxy cluster-redis "$(target_url direct)" "$RES/cluster-redis-proxy.log" -limit "GET /limited/1k:$limit" \
    -release-cooldown 0 -limiter-backend "$redis" -limiter-namespace bench-overhead
  CL_REDIS_PORT=$LAUNCHED_PORT CL_REDIS_PID=$LAUNCHED_PID r_started=$LAUNCHED_STARTED
  for kind in local redis; do
    wrk_run "cluster-warmup-$kind" "cluster-$kind" 16 "$ADM_WARMUP" /limited/1k >/dev/null || log "cluster: warm-up of $kind failed"
  done
  md "## Cluster mode: admission through Redis vs in-process" "" \
    "Two proxy processes, started for this section, identical but for \`-limiter-backend redis://127.0.0.1:PORT\` (a \`redis-server\` of this run, no persistence): \`-limit 'GET /limited/1k:$limit' -release-cooldown 0\`." \
    "\`GET /limited/1k\` takes and returns a slot ($limit slots: nobody waits), so the difference is the cost of the lease scripts (acquire, release) per request." \
    "wrk, ${DURATION}s per run, after ${ADM_WARMUP}s of warm-up each; rounds alternate the order (ABBA). Redis shares the cores with everything else." "" \
    "| c | round | limiter | RPS | p50 | p99 | CPU/req (proxy) | errors |" "| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |"
  for c in $CL_CONNECTIONS; do
    for ((round = 1; round <= ADM_ROUNDS; round++)); do
      if ((round % 2 == 1)); then order="local redis"; else order="redis local"; fi
      for kind in $order; do
        log "cluster: c=$c round $round $kind for ${DURATION}s"
        if ! line=$(wrk_run "cluster-$kind-c$c-r$round" "cluster-$kind" "$c" "$DURATION" /limited/1k); then
          md "| $c | $round | $kind | failed | | | | |"
          continue
        fi
        rps=$(kv rps "$line"); p50=$(kv p50_us "$line"); p99=$(kv p99_us "$line")
        errs=$(($(kv socket_errors "$line") + $(kv non2xx "$line")))
        M[cl.$c.$kind.n]=$((${M[cl.$c.$kind.n]:-0} + 1))
        M[cl.$c.$kind.p50_us]=$((${M[cl.$c.$kind.p50_us]:-0} + p50))
        M[cl.$c.$kind.p99_us]=$((${M[cl.$c.$kind.p99_us]:-0} + p99))
        M[cl.errors]=$((${M[cl.errors]:-0} + errs))
        md "| $c | $round | $kind | $(fmt_rps "$rps") | $(fmt_us "$p50") | $(fmt_us "$p99") | $(fmt_us "$(kv cpu_us_per_req "$line")") | $errs |"
        log "cluster: c=$c $kind rps=$(fmt_rps "$rps") p50=$(fmt_us "$p50") p99=$(fmt_us "$p99") errors=$errs"
      done
    done
  done
  md ""
  rss_of "$CL_REDIS_PID" "Redis-backed proxy after load"
  stop_pid "$l_started"; stop_pid "$r_started"
  CL_LOCAL_PID="" CL_REDIS_PID=""
  local first_c added50="" a50 a99 n_l n_r
  first_c=${CL_CONNECTIONS%% *}
  for c in $CL_CONNECTIONS; do
    n_l=${M[cl.$c.local.n]:-0} n_r=${M[cl.$c.redis.n]:-0}
    if [ "$n_l" = 0 ] || [ "$n_r" = 0 ]; then md "- c=$c: not measured (a limiter has no successful run)"; continue; fi
    a50=$(( ${M[cl.$c.redis.p50_us]} / n_r - ${M[cl.$c.local.p50_us]} / n_l ))
    a99=$(( ${M[cl.$c.redis.p99_us]} / n_r - ${M[cl.$c.local.p99_us]} / n_l ))
    md "- c=$c: added by the Redis backend (mean redis − mean local): p50 **$(fmt_us "$a50")**, p99 **$(fmt_us "$a99")**"
    [ "$c" = "$first_c" ] && added50=$a50
  done
  md ""
  if [ -n "$added50" ]; then
    check "cluster admission overhead, c=$first_c (Redis − in-process p50)" "≤ 1 ms; no errors" \
      "$(fmt_us "$added50"), ${M[cl.errors]:-0} errors" "$(passfail "$added50 <= 1000 && ${M[cl.errors]:-0} == 0")"
  else
    check "cluster admission overhead (Redis − in-process p50)" "≤ 1 ms" "not measured" "n/a"
  fi

  # The burst: two instances, one shared limit of 2.
  launch_upstream "$RES/cluster-burst-upstream.log"
  local bport=$LAUNCHED_PORT
  up_started=$LAUNCHED_PID
  local bflags=(-limit-all=true -concurrency 2 -release-cooldown 0 -queue-timeout 60s -limiter-backend "$redis" -limiter-namespace bench-burst)
  # Reference: one in-process instance with the same limit takes both bursts' connections alone.
  launch_proxy cluster-burst-ref "http://127.0.0.1:$bport" /dev/null "${bflags[@]:0:7}"
  CL_B1_PORT=$LAUNCHED_PORT CL_B1_PID=$LAUNCHED_PID b1_started=$LAUNCHED_STARTED
  local ref_line ref_rps=""
  if ref_line=$(wrk_run cluster-burst-ref burst1 "$((CL_BURST * 2))" "$DURATION" "/1k?delay=2ms"); then
    ref_rps=$(kv rps "$ref_line")
  fi
  stop_pid "$b1_started"
  launch_proxy cluster-burst1 "http://127.0.0.1:$bport" /dev/null "${bflags[@]}"
  CL_B1_PORT=$LAUNCHED_PORT CL_B1_PID=$LAUNCHED_PID b1_started=$LAUNCHED_STARTED
  launch_proxy cluster-burst2 "http://127.0.0.1:$bport" /dev/null "${bflags[@]}"
  CL_B2_PORT=$LAUNCHED_PORT CL_B2_PID=$LAUNCHED_PID b2_started=$LAUNCHED_STARTED
  log "cluster: burst of $CL_BURST connections on each of two instances, shared -concurrency 2, ${DURATION}s"
  local out1="$RES/cluster-burst1.txt" out2="$RES/cluster-burst2.txt" w1 w2
  wrk_run cluster-burst burst1 "$CL_BURST" "$DURATION" "/1k?delay=2ms" >"$out1" & w1=$!
  wrk_run cluster-burst burst2 "$CL_BURST" "$DURATION" "/1k?delay=2ms" >"$out2" & w2=$!
  wait "$w1"; wait "$w2"
  local stats peak total=0 berrs=0 f brps=0
  stats=$(curl -fs --max-time 2 "http://127.0.0.1:$bport/__stats")
  peak=$(printf '%s' "$stats" | sed -n 's/.*inflight_peak=\([0-9]*\).*/\1/p')
  for f in "$out1" "$out2"; do
    line=$(cat "$f")
    [ -n "$line" ] || { berrs=$((berrs + 1)); continue; }
    total=$((total + $(kv requests "$line")))
    brps=$(calc "$brps + $(kv rps "$line")" 1)
    berrs=$((berrs + $(kv socket_errors "$line") + $(kv non2xx "$line")))
  done
  md "### Burst across two instances sharing a limit of 2" "" \
    "Two Redis-backed proxies with \`-limit-all -concurrency 2 -release-cooldown 0\` and one namespace, each loaded by wrk with $CL_BURST connections at once for ${DURATION}s (\`/1k?delay=2ms\`), in front of an upstream of their own that records its peak in-flight count." "" \
    "- requests answered: $total ($(fmt_rps "$brps") RPS together; one in-process instance with the same limit and $((CL_BURST * 2)) connections: $([ -n "$ref_rps" ] && echo "$(fmt_rps "$ref_rps") RPS" || echo "not measured")); errors: $berrs" \
    "- upstream peak in flight: **${peak:-unknown}** (shared limit 2; in-process limiters would allow 4)" ""
  check "cluster burst: upstream peak in flight (2 instances, shared limit 2)" "≤ 2; no errors" \
    "${peak:-unknown}, $total requests, $berrs errors" "$(passfail "${peak:-99} <= 2 && $berrs == 0")"
  stop_pid "$b1_started"; stop_pid "$b2_started"; stop_pid "$up_started"; stop_pid "$rpid"
  CL_B1_PID="" CL_B2_PID=""
}

# --- cluster mode on each kind of Redis --------------------------------------------------------
# Four proxies in one run, identical but for where the limits live: in-process, plain redis://,
# rediss:// (a TLS redis-server with a test CA made here by openssl) and redis-cluster:// (three
# masters made by redis-cli --cluster create). Same route and load as the cluster section's
# overhead rows; the order rotates each round. Every server is started here and stopped by PID.
# cluster_start_redis NAME ARG...: a redis-server of this section, waited for by its log; sets STARTED_PID.
cluster_start_redis() {
  local name=$1 i pid
  shift
  redis-server --bind 127.0.0.1 --save '' --appendonly no "$@" >"$RES/$name.log" 2>&1 &
  pid=$!
  own "$pid"
  for ((i = 0; i < 200; i++)); do
    grep -q "Ready to accept connections" "$RES/$name.log" && break
    alive "$pid" || die "$name exited: $(tail -3 "$RES/$name.log")"
    sleep 0.1
  done
  STARTED_PID=$pid
}

section_cluster_kinds() {
  local limit=64 kinds="local redis tls rcluster" pids=() rport tport ports=() nodes="" i c round order kind line rps p50 p99 errs
  ensure_tools redis-server:redis-server redis-cli:redis-tools openssl:openssl
  local pki="$TMP/cluster-pki"
  mkdir -p "$pki"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$pki/ca.key" -out "$pki/ca.pem" -days 2 -subj "/CN=bench ca" >/dev/null 2>&1 &&
    openssl req -newkey rsa:2048 -nodes -keyout "$pki/server.key" -out "$pki/server.csr" -subj "/CN=127.0.0.1" >/dev/null 2>&1 &&
    printf 'subjectAltName=IP:127.0.0.1\n' >"$pki/san.ext" &&
    openssl x509 -req -in "$pki/server.csr" -CA "$pki/ca.pem" -CAkey "$pki/ca.key" -CAcreateserial -out "$pki/server.pem" \
      -days 2 -extfile "$pki/san.ext" >/dev/null 2>&1 || die "cluster_kinds: openssl could not make the test certificates"
  rport=$(free_port) || die "no free port"
  cluster_start_redis kinds-plain --port "$rport" --dir "$TMP"; pids+=("$STARTED_PID")
  tport=$(free_port) || die "no free port"
  cluster_start_redis kinds-tls --port 0 --tls-port "$tport" --tls-cert-file "$pki/server.pem" --tls-key-file "$pki/server.key" \
    --tls-ca-cert-file "$pki/ca.pem" --tls-auth-clients no --dir "$TMP"; pids+=("$STARTED_PID")
  for i in 1 2 3; do
    local np bus
    np=$(free_port) || die "no free port"; bus=$(free_port) || die "no free port"
    mkdir -p "$TMP/rc$i"
    cluster_start_redis "kinds-node$i" --port "$np" --dir "$TMP/rc$i" --cluster-enabled yes --cluster-port "$bus" \
      --cluster-config-file "$TMP/rc$i/nodes.conf"; pids+=("$STARTED_PID")
    ports+=("$np"); nodes="$nodes${nodes:+,}127.0.0.1:$np"
  done
  redis-cli --cluster create "${ports[@]/#/127.0.0.1:}" --cluster-replicas 0 --cluster-yes >"$RES/kinds-cluster-create.log" 2>&1 ||
    die "redis-cli --cluster create failed: $(tail -3 "$RES/kinds-cluster-create.log")"
  for ((i = 0; i < 200; i++)); do
    redis-cli -p "${ports[0]}" cluster info 2>/dev/null | grep -q cluster_state:ok && break
    sleep 0.1
  done
  log "cluster_kinds: redis $rport, rediss $tport, cluster $nodes"
  local flags=(-limit "GET /limited/1k:$limit" -release-cooldown 0)
  local l_started r_started t_started c_started
  launch_proxy cluster-local "$(target_url direct)" /dev/null "${flags[@]}"
  CL_LOCAL_PORT=$LAUNCHED_PORT CL_LOCAL_PID=$LAUNCHED_PID l_started=$LAUNCHED_STARTED
  launch_proxy cluster-redis "$(target_url direct)" "$RES/kinds-redis-proxy.log" "${flags[@]}" \
    -limiter-backend "redis://127.0.0.1:$rport" -limiter-namespace bench-kinds
  CL_REDIS_PORT=$LAUNCHED_PORT CL_REDIS_PID=$LAUNCHED_PID r_started=$LAUNCHED_STARTED
  launch_proxy cluster-tls "$(target_url direct)" "$RES/kinds-tls-proxy.log" "${flags[@]}" \
    -limiter-backend "rediss://127.0.0.1:$tport" -limiter-redis-ca "$pki/ca.pem" -limiter-namespace bench-kinds
  CL_TLS_PORT=$LAUNCHED_PORT CL_TLS_PID=$LAUNCHED_PID t_started=$LAUNCHED_STARTED
  launch_proxy cluster-rcluster "$(target_url direct)" "$RES/kinds-rcluster-proxy.log" "${flags[@]}" \
    -limiter-backend "redis-cluster://$nodes" -limiter-namespace bench-kinds
  CL_RC_PORT=$LAUNCHED_PORT CL_RC_PID=$LAUNCHED_PID c_started=$LAUNCHED_STARTED
  for kind in $kinds; do
    wrk_run "kinds-warmup-$kind" "cluster-$kind" 16 "$ADM_WARMUP" /limited/1k >/dev/null || log "cluster_kinds: warm-up of $kind failed"
  done
  md "## Cluster mode on each kind of Redis: admission overhead" "" \
    "Four proxy processes, started for this section, identical (\`-limit 'GET /limited/1k:$limit' -release-cooldown 0\`) but for \`-limiter-backend\`: none (in-process), \`redis://\`, \`rediss://\` (TLS, a test CA made by openssl) and \`redis-cluster://\` (three masters); every server is of this run, without persistence." \
    "Nobody waits ($limit slots), so the difference to in-process is the cost of the lease scripts per request on that kind." \
    "wrk, ${DURATION}s per run, after ${ADM_WARMUP}s of warm-up each; the order rotates every round. Redis shares the cores with everything else." "" \
    "| c | round | limiter | RPS | p50 | p99 | CPU/req (proxy) | errors |" "| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |"
  local -a rot=($kinds)
  for c in $CL_CONNECTIONS; do
    for ((round = 1; round <= ADM_ROUNDS; round++)); do
      order="${rot[*]:$(((round - 1) % 4))} ${rot[*]:0:$(((round - 1) % 4))}"
      for kind in $order; do
        log "cluster_kinds: c=$c round $round $kind for ${DURATION}s"
        if ! line=$(wrk_run "kinds-$kind-c$c-r$round" "cluster-$kind" "$c" "$DURATION" /limited/1k); then
          md "| $c | $round | $kind | failed | | | | |"
          continue
        fi
        rps=$(kv rps "$line"); p50=$(kv p50_us "$line"); p99=$(kv p99_us "$line")
        errs=$(($(kv socket_errors "$line") + $(kv non2xx "$line")))
        M[ck.$c.$kind.n]=$((${M[ck.$c.$kind.n]:-0} + 1))
        M[ck.$c.$kind.p50_us]=$((${M[ck.$c.$kind.p50_us]:-0} + p50))
        M[ck.$c.$kind.p99_us]=$((${M[ck.$c.$kind.p99_us]:-0} + p99))
        md "| $c | $round | $kind | $(fmt_rps "$rps") | $(fmt_us "$p50") | $(fmt_us "$p99") | $(fmt_us "$(kv cpu_us_per_req "$line")") | $errs |"
      done
    done
  done
  md ""
  local n_l n_k
  for c in $CL_CONNECTIONS; do
    n_l=${M[ck.$c.local.n]:-0}
    for kind in redis tls rcluster; do
      n_k=${M[ck.$c.$kind.n]:-0}
      if [ "$n_l" = 0 ] || [ "$n_k" = 0 ]; then md "- c=$c $kind: not measured"; continue; fi
      md "- c=$c: added by $kind (mean $kind − mean in-process): p50 **$(fmt_us "$(( ${M[ck.$c.$kind.p50_us]} / n_k - ${M[ck.$c.local.p50_us]} / n_l ))")**, p99 **$(fmt_us "$(( ${M[ck.$c.$kind.p99_us]} / n_k - ${M[ck.$c.local.p99_us]} / n_l ))")**"
    done
  done
  md ""
  stop_pid "$l_started"; stop_pid "$r_started"; stop_pid "$t_started"; stop_pid "$c_started"
  CL_LOCAL_PID="" CL_REDIS_PID="" CL_TLS_PID="" CL_RC_PID=""
  for i in "${pids[@]}"; do stop_pid "$i"; done
}

# --- cost of observability ------------------------------------------------------------------
# Two proxies of their own in one run, the same flags except what observes: "off" has none, "on"
# has -metrics-bind (scraped once a second by a curl loop) plus BENCH_OBSERVE_ON_FLAGS (default
# -tui: the dashboard draws in a tmux session while the load runs; empty for metrics only). Rounds
# alternate the order (ABBA); the row is RPS on / off at c=16 on the 1 KiB path, target >= 0.95x.
OBS_CONNECTIONS=${BENCH_OBSERVE_CONNECTIONS:-16}
OBS_ROUNDS=${BENCH_OBSERVE_ROUNDS:-2}
OBS_ON_FLAGS=${BENCH_OBSERVE_ON_FLAGS--tui}

# launch_proxy_tty NAME UPSTREAM_URL FLAG...: launch_proxy for a proxy that needs a terminal
# (-tui): it runs as the only pane of a detached 120x40 tmux session on a tmux server of its own,
# stderr to RES/NAME.err. The JVM is the pane's process (jbang execs it), so LAUNCHED_STARTED is
# the JVM; stopping it by PID ends the pane, and the session and its server go with it.
launch_proxy_tty() {
  local name=$1 upstream=$2 port health hpid i sock
  shift 2
  ensure_tools tmux:tmux
  port=$(free_port) || die "no free port"
  sock="shaper-bench-$$-$name"
  tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 \
    "exec ./jbang Shaper.java -upstream '$upstream' -bind 127.0.0.1:$port $* 2>'$RES/$name.err'" ||
    die "$name: tmux new-session failed"
  for ((i = 0; i < 1200; i++)); do
    health=$(curl -fs --max-time 1 "http://127.0.0.1:$port/__shaper/health") && break
    sleep 0.1
  done
  hpid=$(printf '%s' "$health" | sed -n 's/.*"pid":\([0-9]*\).*/\1/p')
  [ -n "$hpid" ] || die "$name did not come up under tmux on port $port: $(tail -3 "$RES/$name.err")"
  own "$hpid"
  LAUNCHED_PORT=$port LAUNCHED_PID=$hpid LAUNCHED_STARTED=$hpid
}

# obs_scraper URL: scrapes once a second until stopped; counts answers in RES/obs-scrapes.
obs_scraper() {
  local ok=0 failed=0
  while :; do
    if curl -fs --max-time 2 "$1" >/dev/null; then ok=$((ok + 1)); else failed=$((failed + 1)); fi
    echo "ok=$ok failed=$failed" >"$RES/obs-scrapes"
    sleep 1
  done
}

section_observe() {
  local c=$OBS_CONNECTIONS mport started_off started_on scraper round order mode line rps errs
  # With -tui the on proxy runs in a tmux session, and so in a scheduling group of its own (the kernel's
  # autogroup: CPU is shared between sessions first, then between their threads). A proxy in the shell's
  # session shares wrk's and the upstream's group instead and gets a different share of the two cores:
  # measured, the same proxy with no observability flags ran 0.80-0.87x as fast in a session of its own.
  # So off gets a session of its own too (setsid), and the row compares observability alone.
  case " $OBS_ON_FLAGS " in *" -tui "*) LAUNCH_PREFIX=(setsid) ;; esac
  launch_proxy obs-off "$(target_url direct)" /dev/null
  LAUNCH_PREFIX=()
  OBS_OFF_PORT=$LAUNCHED_PORT OBS_OFF_PID=$LAUNCHED_PID started_off=$LAUNCHED_STARTED
  mport=$(free_port) || die "no free port"
  local OBS_TTY_NOTE=""
  # shellcheck disable=SC2086 # OBS_ON_FLAGS is a space-separated flag list
  case " $OBS_ON_FLAGS " in
    *" -tui "*) OBS_TTY_NOTE="; its dashboard draws in a detached 120×40 tmux session meanwhile, and off runs in a session of its own (\`setsid\`) so that both get the same share of the CPU under the kernel's autogroup scheduling"
      launch_proxy_tty obs-on "$(target_url direct)" -metrics-bind "127.0.0.1:$mport" $OBS_ON_FLAGS ;;
    *) launch_proxy obs-on "$(target_url direct)" /dev/null -metrics-bind "127.0.0.1:$mport" $OBS_ON_FLAGS ;;
  esac
  OBS_ON_PORT=$LAUNCHED_PORT OBS_ON_PID=$LAUNCHED_PID started_on=$LAUNCHED_STARTED
  wait_http "http://127.0.0.1:$mport/metrics" "$OBS_ON_PID" 10 || die "observe: /metrics does not answer"
  obs_scraper "http://127.0.0.1:$mport/metrics" &
  scraper=$!
  own "$scraper"
  log "observe: off pid $OBS_OFF_PID, on pid $OBS_ON_PID (-metrics-bind 127.0.0.1:$mport${OBS_ON_FLAGS:+ $OBS_ON_FLAGS}, scraped every second)"
  for mode in off on; do
    wrk_run obs-warmup-$mode obs-$mode "$c" "$ADM_WARMUP" /1k >/dev/null || log "observe: warm-up of $mode failed"
  done
  md "## Cost of observability: metrics on vs off" "" \
    "Two proxy processes started for this section, default flags otherwise: **off** has no observability flags; **on** has \`-metrics-bind 127.0.0.1:PORT${OBS_ON_FLAGS:+ $OBS_ON_FLAGS}\` and its \`/metrics\` is scraped once a second during the runs${OBS_TTY_NOTE}." \
    "wrk, c=$c, $THREADS threads, \`GET /1k\` (1 KiB), ${DURATION}s per run after ${ADM_WARMUP}s of warm-up each; rounds alternate the order (ABBA)." "" \
    "| round | proxy | RPS | p50 | p99 | CPU/req | errors |" "| ---: | --- | ---: | ---: | ---: | ---: | ---: |"
  for ((round = 1; round <= OBS_ROUNDS; round++)); do
    if ((round % 2 == 1)); then order="off on"; else order="on off"; fi
    for mode in $order; do
      log "observe: round $round $mode at c=$c for ${DURATION}s"
      if ! line=$(wrk_run "obs-$mode-r$round" "obs-$mode" "$c" "$DURATION" /1k); then
        md "| $round | $mode | failed | | | | |"
        continue
      fi
      rps=$(kv rps "$line"); errs=$(($(kv socket_errors "$line") + $(kv non2xx "$line")))
      M[obs.$mode.n]=$((${M[obs.$mode.n]:-0} + 1))
      M[obs.$mode.rps]=$(calc "${M[obs.$mode.rps]:-0} + $rps" 1)
      M[obs.$mode.errors]=$((${M[obs.$mode.errors]:-0} + errs))
      md "| $round | $mode | $(fmt_rps "$rps") | $(fmt_us "$(kv p50_us "$line")") | $(fmt_us "$(kv p99_us "$line")") | $(fmt_us "$(kv cpu_us_per_req "$line")") | $errs |"
      log "observe: $mode rps=$(fmt_rps "$rps") errors=$errs"
    done
  done
  stop_pid "$scraper"
  local scrapes
  scrapes=$(cat "$RES/obs-scrapes" 2>/dev/null)
  rss_of "$OBS_ON_PID" "observability proxy (on) after load"
  stop_pid "$started_off"; stop_pid "$started_on"
  OBS_OFF_PID="" OBS_ON_PID=""
  local n_off=${M[obs.off.n]:-0} n_on=${M[obs.on.n]:-0}
  if [ "$n_off" = 0 ] || [ "$n_on" = 0 ]; then
    md "- not measured: a proxy has no successful run" ""
    check "observability cost (on / off RPS, c=$c)" "≥ 0.95×" "not measured" "FAIL"
    return
  fi
  local ron roff ratio
  roff=$(calc "${M[obs.off.rps]} / $n_off" 1); ron=$(calc "${M[obs.on.rps]} / $n_on" 1)
  ratio=$(calc "$ron / $roff")
  M[obs.ratio]=$ratio
  md "- mean of $n_off/$n_on run(s): off $(fmt_rps "$roff") RPS, on $(fmt_rps "$ron") RPS: on / off = **${ratio}×**; scrapes during the section: ${scrapes:-none}" ""
  local errs_total=$(( ${M[obs.off.errors]} + ${M[obs.on.errors]} ))
  check "observability cost (on / off RPS, c=$c)" "≥ 0.95×, no errors" "${ratio}×, $errs_total errors" \
    "$(awk -v r="$ratio" -v e="$errs_total" 'BEGIN { print (r >= 0.95 && e == 0) ? "PASS" : "FAIL" }')"
}

# --- tracing: -otel on vs off ----------------------------------------------------------------
# Two proxies of their own in front of the same fake upstream, which also takes the OTLP export
# (it answers POST /v1/traces and /v1/metrics with 200): off has no flags, on has -otel with
# OTEL_TRACES_SAMPLER=always_on (every exchange traced: sampling 1.0). RPS and latency in ABBA
# rounds, then both proxies' per-event SSE delay in one SseProbe run (same rounds, same upstream),
# then the on proxy's RSS.
OTEL_CONNECTIONS=${BENCH_OTEL_CONNECTIONS:-16}
OTEL_ROUNDS=${BENCH_OTEL_ROUNDS:-2}
section_otel() {
  local c=$OTEL_CONNECTIONS started_off started_on round order mode line rps
  launch_proxy otel-off "$(target_url direct)" /dev/null
  OTEL_OFF_PORT=$LAUNCHED_PORT OTEL_OFF_PID=$LAUNCHED_PID started_off=$LAUNCHED_STARTED
  OTEL_TRACES_SAMPLER=always_on OTEL_METRIC_EXPORT_INTERVAL=5000 \
    launch_proxy otel-on "$(target_url direct)" /dev/null -otel -otel-endpoint "$(target_url direct)"
  OTEL_ON_PORT=$LAUNCHED_PORT OTEL_ON_PID=$LAUNCHED_PID started_on=$LAUNCHED_STARTED
  log "otel: off pid $OTEL_OFF_PID, on pid $OTEL_ON_PID (-otel, exporting to the fake upstream)"
  for mode in off on; do
    wrk_run otel-warmup-$mode otel-$mode "$c" "$ADM_WARMUP" /1k >/dev/null || log "otel: warm-up of $mode failed"
  done
  md "## Cost of tracing: -otel on vs off" "" \
    "Two proxy processes started for this section: **off** has no flags; **on** has \`-otel\` with \`OTEL_TRACES_SAMPLER=always_on\` (every exchange traced) and exports by OTLP/HTTP to the fake upstream, which answers 200." \
    "wrk, c=$c, $THREADS threads, \`GET /1k\`, ${DURATION}s per run after ${ADM_WARMUP}s of warm-up each; rounds alternate the order (ABBA)." "" \
    "| round | proxy | RPS | p50 | p99 | CPU/req | errors |" "| ---: | --- | ---: | ---: | ---: | ---: | ---: |"
  for ((round = 1; round <= OTEL_ROUNDS; round++)); do
    order="off on"; ((round % 2 == 1)) || order="on off"
    for mode in $order; do
      line=$(wrk_run "otel-$mode-r$round" "otel-$mode" "$c" "$DURATION" /1k) || { md "| $round | $mode | failed | | | | |"; continue; }
      rps=$(kv rps "$line")
      M[otel.$mode.n]=$((${M[otel.$mode.n]:-0} + 1)); M[otel.$mode.rps]=$(calc "${M[otel.$mode.rps]:-0} + $rps" 1)
      md "| $round | $mode | $(fmt_rps "$rps") | $(fmt_us "$(kv p50_us "$line")") | $(fmt_us "$(kv p99_us "$line")") | $(fmt_us "$(kv cpu_us_per_req "$line")") | $(($(kv socket_errors "$line") + $(kv non2xx "$line"))) |"
    done
  done
  local bound=$((60 + 2 * (SSE_ROUNDS * (SSE_EVENTS * 100 / 1000 + 5) + $(sse_warmup_seconds))))
  # shellcheck disable=SC2046 # the warm-up flags are separate words
  run_bounded "$bound" ./jbang bench/SseProbe.java -events "$SSE_EVENTS" -interval "$SSE_INTERVAL" -rounds "$SSE_ROUNDS" $(sse_warmup_args) -raw "$RES" \
    "off=$(target_url otel-off)/sse" "on=$(target_url otel-on)/sse" >"$RES/otel-sse.txt" 2>"$RES/otel-sse.err" || log "otel: sse probe failed: $(tail -3 "$RES/otel-sse.err")"
  local loff lon
  loff=$(grep -m1 "^SSE_RESULT label=off " "$RES/otel-sse.txt"); lon=$(grep -m1 "^SSE_RESULT label=on " "$RES/otel-sse.txt")
  md ""
  if [ -n "$loff" ] && [ -n "$lon" ]; then
    md "- SSE, $SSE_ROUNDS × $SSE_EVENTS events $SSE_INTERVAL apart ($(sse_rounds_words)): off p50 $(fmt_us "$(kv p50_us "$loff")"), p99 $(fmt_us "$(kv p99_us "$loff")"); on p50 $(fmt_us "$(kv p50_us "$lon")"), p99 $(fmt_us "$(kv p99_us "$lon")")"
    check "tracing on: SSE per-event p99 (vs off)" "unchanged (≤ +0.5 ms)" "$(fmt_us "$(kv p99_us "$lon")") vs $(fmt_us "$(kv p99_us "$loff")")" \
      "$(passfail "$(kv p99_us "$lon") - $(kv p99_us "$loff") <= 500")"
  fi
  rss_of "$OTEL_ON_PID" "tracing proxy (-otel) after load"
  stop_pid "$started_off"; stop_pid "$started_on"
  OTEL_OFF_PID="" OTEL_ON_PID=""
  local n_off=${M[otel.off.n]:-0} n_on=${M[otel.on.n]:-0}
  if [ "$n_off" = 0 ] || [ "$n_on" = 0 ]; then
    check "tracing cost (on / off RPS, c=$c)" "≥ 0.95×" "not measured" "FAIL"
    return
  fi
  local ratio
  ratio=$(calc "(${M[otel.on.rps]} / $n_on) / (${M[otel.off.rps]} / $n_off)")
  md "- mean of $n_off/$n_on run(s): on / off = **${ratio}×**" ""
  check "tracing cost (on / off RPS, c=$c, sampling 1.0)" "≥ 0.95×" "${ratio}×" "$(passfail "$ratio >= 0.95")"
}

# --- transcoding: Messages -> Chat vs passthrough ------------------------------------------
# A proxy of its own with two transcoded routes and no limited route (so neither row queues):
# /tc/v1/messages -> /v1/chat/completions (JSON) and /tcsse/v1/messages -> /sse/v1/chat/completions
# (a stream of timestamped deltas; n and interval are client query parameters the proxy allows). The passthrough row posts the same 2 KiB Messages body to
# /v1/messages, which the fake upstream answers with the same content as an Anthropic message.
section_transcode() { transcode_rows messages; }
section_transcode_responses() { transcode_rows responses; }

# One transcoded direction against passthrough: $1 is the client dialect (messages: Messages→Chat,
# responses: Responses→Chat), the same rows and checks for each, metrics under tc.* / tcr.*.
transcode_rows() {
  local kind=$1 c route line rps p50 p99 errs started round order body label m client
  body="$RES/transcode-$kind-body.json"
  if [ "$kind" = responses ]; then
    label="Responses→Chat" m=tcr client=/v1/responses
    awk 'BEGIN { printf "{\"model\":\"bench\",\"max_output_tokens\":64,\"instructions\":\"You are a benchmark.\",\"input\":\""; for (i = 0; i < 1900; i++) printf "x"; printf "\"}" }' >"$body"
  else
    label="Messages→Chat" m=tc client=/v1/messages
    awk 'BEGIN { printf "{\"model\":\"bench\",\"max_tokens\":64,\"system\":\"You are a benchmark.\",\"messages\":[{\"role\":\"user\",\"content\":\""; for (i = 0; i < 1900; i++) printf "x"; printf "\"}]}" }' >"$body"
  fi
  printf 'local f = io.open("%s", "rb")\nwrk.method = "POST"\nwrk.body = f:read("*a")\nf:close()\nwrk.headers["Content-Type"] = "application/json"\ndofile("%s")\n' \
    "$body" "$BENCH/wrk-report.lua" >"$RES/wrk-post.lua"
  launch_proxy transcode-proxy "$(target_url direct)" /dev/null -limit "POST /none:unlimited" \
    -transcode-allow-client-query n,interval \
    -transcode-route "$kind@/tc$client=chat-completions@/v1/chat/completions" \
    -transcode-route "$kind@/tcsse$client=chat-completions@/sse/v1/chat/completions"
  TC_PORT=$LAUNCHED_PORT TC_PID=$LAUNCHED_PID started=$LAUNCHED_STARTED
  log "transcode $kind: proxy pid $TC_PID on 127.0.0.1:$TC_PORT"
  curl -fs --max-time 5 -H 'content-type: application/json' --data-binary "@$body" "$(target_url transcode)/tc$client" >"$RES/transcode-$kind-sample.json" ||
    log "transcode $kind: sample request failed"
  for route in transcoded passthrough; do
    WRK_SCRIPT="$RES/wrk-post.lua" wrk_run transcode-$kind-warmup-$route transcode 16 "$ADM_WARMUP" "$(tc_path $route "$client")" >/dev/null ||
      log "transcode $kind: warm-up of $route failed"
  done
  md "## Transcoding: ${label/→/ → } vs passthrough" "" \
    "One proxy process, started for this section, no limited route. \`POST /tc$client\` (a $(wc -c <"$body")-byte body) is" \
    "converted to \`POST /v1/chat/completions\` and the Chat answer back; \`POST $client\` is passthrough to an" \
    "upstream that answers the same content in the client's dialect. wrk, $THREADS threads, ${DURATION}s per run; rounds alternate (ABBA)." "" \
    "| round | c | route | RPS | p50 | p99 | errors |" "| ---: | ---: | --- | ---: | ---: | ---: | ---: |"
  for c in 1 16; do
    for ((round = 1; round <= ADM_ROUNDS; round++)); do
      if ((round % 2 == 1)); then order="passthrough transcoded"; else order="transcoded passthrough"; fi
      for route in $order; do
        if ! line=$(WRK_SCRIPT="$RES/wrk-post.lua" wrk_run "transcode-$kind-$route-c$c-r$round" transcode "$c" "$DURATION" "$(tc_path "$route" "$client")"); then
          md "| $round | $c | $route | failed | | | |"
          continue
        fi
        rps=$(kv rps "$line"); p50=$(kv p50_us "$line"); p99=$(kv p99_us "$line")
        errs=$(($(kv socket_errors "$line") + $(kv non2xx "$line")))
        M[$m.$c.$route.n]=$((${M[$m.$c.$route.n]:-0} + 1))
        M[$m.$c.$route.rps]=$(calc "${M[$m.$c.$route.rps]:-0} + $rps" 1)
        M[$m.$c.$route.p50_us]=$((${M[$m.$c.$route.p50_us]:-0} + p50))
        M[$m.$c.$route.errors]=$((${M[$m.$c.$route.errors]:-0} + errs))
        md "| $round | $c | $route | $(fmt_rps "$rps") | $(fmt_us "$p50") | $(fmt_us "$p99") | $errs |"
        log "transcode $kind: c=$c $route rps=$(fmt_rps "$rps") p50=$(fmt_us "$p50") p99=$(fmt_us "$p99") errors=$errs"
      done
    done
  done
  md ""
  local n1t=${M[$m.1.transcoded.n]:-0} n1p=${M[$m.1.passthrough.n]:-0} n16t=${M[$m.16.transcoded.n]:-0} n16p=${M[$m.16.passthrough.n]:-0}
  if [ "$n1t" -gt 0 ] && [ "$n1p" -gt 0 ]; then
    local added=$(( ${M[$m.1.transcoded.p50_us]} / n1t - ${M[$m.1.passthrough.p50_us]} / n1p ))
    M[$m.added.p50_us]=$added
    check "transcoded $label added p50 at c=1 (vs passthrough, 2 KiB request)" "≤ 0.3 ms" "$(fmt_us "$added")" "$(passfail "$added <= 300")"
  else
    check "transcoded $label added p50 at c=1 (vs passthrough, 2 KiB request)" "≤ 0.3 ms" "not measured" "n/a"
  fi
  if [ "$n16t" -gt 0 ] && [ "$n16p" -gt 0 ]; then
    local rt rp ratio
    rt=$(calc "${M[$m.16.transcoded.rps]} / $n16t" 1); rp=$(calc "${M[$m.16.passthrough.rps]} / $n16p" 1); ratio=$(calc "$rt / $rp")
    M[$m.ratio]=$ratio
    check "transcoded $label RPS at c=16 (vs passthrough)" "≥ 0.7×" "${ratio}× ($(fmt_rps "$rt") vs $(fmt_rps "$rp"))" \
      "$(passfail "$ratio >= 0.7")"
  else
    check "transcoded $label RPS at c=16 (vs passthrough)" "≥ 0.7×" "not measured" "n/a"
  fi
  local bound=$((60 + 2 * (SSE_ROUNDS * (SSE_EVENTS * 100 / 1000 + 5) + $(sse_warmup_seconds))))
  # shellcheck disable=SC2046 # the warm-up flags are separate words
  run_bounded "$bound" ./jbang bench/SseProbe.java -events "$SSE_EVENTS" -interval "$SSE_INTERVAL" -rounds "$SSE_ROUNDS" $(sse_warmup_args) -raw "$RES" \
    "direct=$(target_url direct)" "transcoded=$(target_url transcode)/tcsse$client" >"$RES/transcode-$kind-sse.txt" 2>"$RES/transcode-$kind-sse.err" ||
    log "transcode $kind: sse probe failed: $(tail -3 "$RES/transcode-$kind-sse.err")"
  local ld lt
  ld=$(grep -m1 "^SSE_RESULT label=direct " "$RES/transcode-$kind-sse.txt"); lt=$(grep -m1 "^SSE_RESULT label=transcoded " "$RES/transcode-$kind-sse.txt")
  if [ -n "$ld" ] && [ -n "$lt" ] && [ -z "$(kv error "$lt")" ]; then
    local a50 a99
    a50=$(( $(kv p50_us "$lt") - $(kv p50_us "$ld") )); a99=$(( $(kv p99_us "$lt") - $(kv p99_us "$ld") ))
    M[$m.sse.added.p99_us]=$a99
    md "- transcoded stream, $SSE_ROUNDS × $SSE_EVENTS Chat deltas $SSE_INTERVAL apart converted to ${label%%→*} events ($(sse_rounds_words); p99 per stream: transcoded $(kv round_p99_us "$lt"), direct $(kv round_p99_us "$ld") µs): p50 $(fmt_us "$(kv p50_us "$lt")"), p99 $(fmt_us "$(kv p99_us "$lt")");" \
      "  direct \`/sse\` p50 $(fmt_us "$(kv p50_us "$ld")"), p99 $(fmt_us "$(kv p99_us "$ld")"): added p50 **$(fmt_us "$a50")**, p99 **$(fmt_us "$a99")**" ""
    check "transcoded $label stream added per-event delay p99 (vs direct)" "≤ 1 ms" "$(fmt_us "$a99") (p50 $(fmt_us "$a50"))" "$(passfail "$a99 <= 1000")"
  else
    check "transcoded $label stream added per-event delay p99 (vs direct)" "≤ 1 ms" "not measured" "n/a"
  fi
  rss_of "$TC_PID" "transcode $kind proxy after load"
  stop_pid "$started"
  TC_PID=""
}

tc_path() { case $1 in transcoded) echo "/tc$2" ;; passthrough) echo "$2" ;; esac; }

# --- 10,000 queued clients -----------------------------------------------------------------
# A proxy of its own (-limit-all -concurrency 4, no cooldown, no queue timeout) in front of an
# upstream of its own; bench/QueueFlood.java holds the first 4 at the upstream's gate, queues
# everyone else, samples the proxy's RSS and heap, opens the gate and checks order and completeness.
# --- the smarter queue: adaptive concurrency against a moving capacity, priority classes -------

launch_probe() {
  local log=$1 port pid
  shift
  port=$(free_port) || die "no free port"
  ./jbang ProbeServer.java -bind "127.0.0.1:$port" "$@" >"$log" 2>&1 &
  pid=$!
  own "$pid"
  wait_http "http://127.0.0.1:$port/__probe/stats" "$pid" 120 || die "probe did not start (see $log)"
  LAUNCHED_PID=$pid LAUNCHED_PORT=$port
}

section_routing_goodput() {
  local mode pa pb px line ok s429 fb good ideal out
  ideal=$(calc "2 * 2 / (2.5 * $CAPACITY_LATENCY_MS / 1000)" 1)
  md "## Routing: goodput over two providers, fallback by queue vs by error only" "" \
    "Two \`ProbeServer.java -capacity 2 -capacity-latency ${CAPACITY_LATENCY_MS}ms\` fixtures (429 above 2 in flight) as providers \`a\` and \`b\` of one proxy:" \
    "\`-route-prefix /r -model-route '*=a,b'\`, each provider \`-retry 0 -circuit-breaker=false -release-cooldown 0 -limit-all\`. $ROUTING_AGENTS closed-loop agents (\`bench/RouteAgents.java\`) for ${ROUTING_SECONDS} s." \
    "By queue: \`-fallback-after ${ROUTING_FALLBACK_AFTER}\` and \`-concurrency 2\` per provider (a request not admitted within that moves to the next target). By error only: \`-concurrency 4\` per provider (overbooked, no \`-fallback-after\`: only the upstream's 429 moves a request)." \
    "Sum of the capacities: 2 + 2 in flight, ${ideal} req/s from these fixtures (each answer at 2.5x latency when full). Upstream 429s = \`shaper_fallbacks_total{reason=\"429\"}\` + 429s the clients got." \
    "Death: the queue setup again for ${ROUTING_DEATH_SECONDS} s; at ${ROUTING_DEATH_AT} s the first provider's fixture is stopped by its PID (KILL); the row gives the time to the first success of a request sent after that." "" \
    "| fallback | sent | ok | goodput (req/s) | of the sum | upstream 429s | 429 to clients | other | errors | death → first success |" \
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for mode in queue error death; do
    launch_probe "$RES/routing-$mode-a.log" -capacity 2 -capacity-latency "${CAPACITY_LATENCY_MS}ms"; pa=$LAUNCHED_PID; local porta=$LAUNCHED_PORT
    launch_probe "$RES/routing-$mode-b.log" -capacity 2 -capacity-latency "${CAPACITY_LATENCY_MS}ms"; pb=$LAUNCHED_PID; local portb=$LAUNCHED_PORT
    local mport lim=(-concurrency 2) srv=(-fallback-after "$ROUTING_FALLBACK_AFTER") kill=() secs=$ROUTING_SECONDS
    mport=$(free_port) || die "no free port"
    [ "$mode" = error ] && lim=(-concurrency 4) srv=()
    [ "$mode" = death ] && kill=(-kill-pid "$pa" -kill-at "$ROUTING_DEATH_AT") && secs=$ROUTING_DEATH_SECONDS
    launch_proxy "routing-$mode-proxy" - "$RES/routing-$mode-proxy.log" -metrics-bind "127.0.0.1:$mport" -route-prefix /r -model-route '*=a,b' "${srv[@]}" \
      --provider=a -upstream "http://127.0.0.1:$porta" -prefix /a -retry 0 -circuit-breaker=false -release-cooldown 0 -limit-all "${lim[@]}" \
      --provider=b -upstream "http://127.0.0.1:$portb" -prefix /b -retry 0 -circuit-breaker=false -release-cooldown 0 -limit-all "${lim[@]}"
    px=$LAUNCHED_STARTED
    run_bounded $((secs + 120)) ./jbang bench/RouteAgents.java -url "http://127.0.0.1:$LAUNCHED_PORT/r/capacity/v1/messages" \
      -agents "$ROUTING_AGENTS" -seconds "$secs" "${kill[@]}" >"$RES/routing-$mode.txt" 2>"$RES/routing-$mode.err" ||
      log "routing_goodput $mode: agents failed: $(tail -3 "$RES/routing-$mode.err")"
    fb=$(curl -fs --max-time 5 "http://127.0.0.1:$mport/metrics" | awk '/^shaper_fallbacks_total\{/ && /reason="429"/ { s += $NF } END { printf "%d", s }')
    stop_pid "$px"; stop_pid "$pa"; stop_pid "$pb"
    line=$(grep -m1 '^ROUTE_RESULT ' "$RES/routing-$mode.txt")
    if [ -z "$line" ]; then
      md "| $mode | not measured | | | | | | | | |"
      check "routing goodput $mode" "measured" "no result" "FAIL"
      continue
    fi
    ok=$(kv ok "$line") s429=$(kv s429 "$line")
    good=$(calc "$ok / $(kv elapsed "$line")" 1)
    out=$(kv death_to_success_ms "$line"); out=${out:+$out ms}
    md "| $mode | $(kv sent "$line") | $ok | $good | $(calc "100 * $good / $ideal" 0) % | $((fb + s429)) | $s429 | $(kv other "$line") | $(kv errors "$line") | ${out:--} |"
    [ "$mode" = queue ] && check "routing goodput by queue" ">= 80 % of the sum" "$(calc "100 * $good / $ideal" 0) %" "$(passfail "$good >= 0.8 * $ideal")"
  done
  md ""
}

section_capacity() {
  local title="## Adaptive concurrency against a moving capacity" probe_pid probe_port mode px mport line p k
  launch_probe "$RES/capacity-probe.log" -capacity 6 -capacity-latency "${CAPACITY_LATENCY_MS}ms"
  probe_pid=$LAUNCHED_PID probe_port=$LAUNCHED_PORT
  md "$title" "" \
    "\`ProbeServer.java -capacity 6 -capacity-latency ${CAPACITY_LATENCY_MS}ms\`: \`/capacity\` serves N requests at once and answers 429 above N;" \
    "its first byte comes after ${CAPACITY_LATENCY_MS} ms, 1.5x with N-1 in flight, 2.5x at N. $CAPACITY_CLIENTS closed-loop clients (\`bench/QueueLoad.java capacity\`)" \
    "send small non-streaming Messages requests through a proxy at \`-limit-all=true -concurrency 32 -retry 0 -circuit-breaker=false -release-cooldown 0 -queue-timeout 0\` (the breaker off: its 429 count would open the circuit in both runs and hide the limiter)," \
    "with and without \`-adaptive-concurrency\`. Phases (N:seconds) \`$CAPACITY_PHASES\`: N moves at each phase start (\`POST /__probe/capacity?n=N\`)." \
    "429 share and goodput count from ${CAPACITY_SETTLE} s into each phase. N's goodput = what the fixture completes per second with exactly N in flight" \
    "(in a saturated closed loop each request arrives as the N-th, so waits 2.5x: N / (2.5 x ${CAPACITY_LATENCY_MS} ms)); best fixed = the most any fixed concurrency gets from this fixture" \
    "(N-2 in flight at the base latency), shown as a stricter yardstick." \
    "\"followed after\" = the first second of the phase from which the rest of it keeps 429s under 2 % and goodput at 85 % of N's (-1: never)." \
    "Per-second data: \`bench/results/last/capacity-*.csv\`." "" \
    "| proxy | N | upstream 429s | goodput (req/s) | of N's | of best fixed | followed after | limit at phase end |" \
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for mode in fixed adaptive; do
    mport=$(free_port) || die "no free port"
    local extra=()
    [ "$mode" = adaptive ] && extra=(-adaptive-concurrency)
    launch_proxy "capacity-$mode-proxy" "http://127.0.0.1:$probe_port" "$RES/capacity-$mode-proxy.log" \
      -limit-all=true -concurrency 32 -retry 0 -circuit-breaker=false -release-cooldown 0 -queue-timeout 0 -metrics-bind "127.0.0.1:$mport" "${extra[@]}"
    px=$LAUNCHED_STARTED
    run_bounded $((CAPACITY_TOTAL + 120)) ./jbang bench/QueueLoad.java capacity -proxy "http://127.0.0.1:$LAUNCHED_PORT" \
      -probe "http://127.0.0.1:$probe_port" -clients "$CAPACITY_CLIENTS" -phases "$CAPACITY_PHASES" -settle "$CAPACITY_SETTLE" \
      -latency-ms "$CAPACITY_LATENCY_MS" -metrics "http://127.0.0.1:$mport/metrics" -csv "$RES/capacity-$mode.csv" \
      >"$RES/capacity-$mode.txt" 2>"$RES/capacity-$mode.err" || log "capacity $mode: client failed: $(tail -3 "$RES/capacity-$mode.err")"
    stop_pid "$px"
    line=$(grep -m1 '^CAPACITY_RESULT ' "$RES/capacity-$mode.txt")
    if [ -z "$line" ]; then
      md "| $mode | - | not measured | | | | | |"
      check "capacity $mode" "measured" "no result" "FAIL"
      continue
    fi
    for p in 1 2 3 4 5 6; do
      k="p${p}_"
      [ -n "$(kv "${k}n" "$line")" ] || break
      local n r g i b f l pct bpct
      n=$(kv "${k}n" "$line") r=$(kv "${k}rate429" "$line") g=$(kv "${k}goodput" "$line") i=$(kv "${k}ideal" "$line")
      b=$(kv "${k}best" "$line") f=$(kv "${k}followed_s" "$line") l=$(kv "${k}limit_end" "$line")
      pct=$(calc "100 * $g / $i" 0) bpct=$(calc "100 * $g / $b" 0)
      md "| $([ "$mode" = adaptive ] && echo '`-adaptive-concurrency`' || echo 'fixed 32') | $n | $(calc "100 * $r" 1) % | $g | $pct % | $bpct % | $([ "$f" = -1 ] && echo never || echo "$f s") | $l |"
      if [ "$mode" = adaptive ]; then
        check "capacity N=$n: 429s after settling" "< 2 %" "$(calc "100 * $r" 1) %" "$(passfail "$r < 0.02")"
        check "capacity N=$n: goodput of N's" ">= 85 %" "$pct %" "$(passfail "$g >= 0.85 * $i")"
        [ "$p" = 1 ] || check "capacity N=$n: limit follows the move" "<= 30 s" "$([ "$f" = -1 ] && echo never || echo "$f s")" "$(passfail "$f >= 0 && $f <= 30")"
      fi
    done
  done
  md ""
  stop_pid "$probe_pid"
}

section_priority() {
  local title="## Priority classes: one interactive client behind a background load" probe_pid probe_port mode line
  launch_probe "$RES/priority-probe.log"
  probe_pid=$LAUNCHED_PID probe_port=$LAUNCHED_PORT
  md "$title" "" \
    "$PRIORITY_BACKGROUND background clients and 1 interactive client, closed loops (\`bench/QueueLoad.java priority\`), each request" \
    "\`POST /slow/v1/messages?delay=100ms\` (answered after 100 ms) with \`X-Shaper-Priority\` naming its class, through a proxy at" \
    "\`-limit-all=true -concurrency 2 -release-cooldown 0 -queue-timeout 0\`: today's FIFO, then with \`-priority-class interactive=4 -priority-class background=1\`." \
    "${PRIORITY_SECONDS} s measured after ${PRIORITY_WARMUP} s of warm-up. Wait = latency minus the service time (the fastest of five requests sent alone first)." "" \
    "| queue | interactive wait p50 | interactive latency p90 | background wait p50 | requests (interactive / background) |" \
    "| --- | ---: | ---: | ---: | ---: |"
  local fifo_wait="" wfq_wait=""
  for mode in fifo classes; do
    local extra=()
    [ "$mode" = classes ] && extra=(-priority-class interactive=4 -priority-class background=1)
    launch_proxy "priority-$mode-proxy" "http://127.0.0.1:$probe_port" "$RES/priority-$mode-proxy.log" \
      -limit-all=true -concurrency 2 -release-cooldown 0 -queue-timeout 0 "${extra[@]}"
    run_bounded $((PRIORITY_SECONDS + PRIORITY_WARMUP + 180)) ./jbang bench/QueueLoad.java priority -proxy "http://127.0.0.1:$LAUNCHED_PORT" \
      -background "$PRIORITY_BACKGROUND" -interactive 1 -seconds "$PRIORITY_SECONDS" -warmup "$PRIORITY_WARMUP" \
      >"$RES/priority-$mode.txt" 2>"$RES/priority-$mode.err" || log "priority $mode: client failed: $(tail -3 "$RES/priority-$mode.err")"
    stop_pid "$LAUNCHED_STARTED"
    line=$(grep -m1 '^PRIORITY_RESULT ' "$RES/priority-$mode.txt")
    if [ -z "$line" ]; then
      md "| $mode | not measured | | | |"
      continue
    fi
    md "| $([ "$mode" = classes ] && echo 'weights 4:1' || echo 'FIFO (no classes)') | $(kv interactive_wait_p50_ms "$line") ms | $(kv interactive_p90_ms "$line") ms | $(kv background_wait_p50_ms "$line") ms | $(kv interactive_n "$line") / $(kv background_n "$line") |"
    [ "$mode" = fifo ] && fifo_wait=$(kv interactive_wait_p50_ms "$line") || wfq_wait=$(kv interactive_wait_p50_ms "$line")
  done
  md ""
  if [ -n "$fifo_wait" ] && [ -n "$wfq_wait" ]; then
    check "priority: interactive wait p50, weights 4:1 vs FIFO" "lower" "$wfq_wait ms vs $fifo_wait ms" "$(passfail "$wfq_wait < $fifo_wait")"
  fi
  stop_pid "$probe_pid"
}

# Responses WebSocket turns (bench/WsTurnProbe.java): one socket, turns one after another, against the
# fake directly, through a tunnelling proxy (-responses-websocket tunnel) and through a shaping proxy whose
# route is limited (each turn admitted and recorded). Rows: the turn's round trip with no events (the cost
# per turn of termination and admission) and the per-event delay of a streamed turn.
section_websocket() {
  local quick=${QUICK:-0} turns warmup events interval port pid target url tline eline shape_port tunnel_port traced_port
  turns=${BENCH_WS_TURNS:-$([ "$quick" = 1 ] && echo 60 || echo 300)}
  warmup=${BENCH_WS_WARMUP:-$([ "$quick" = 1 ] && echo 20 || echo 100)}
  events=${BENCH_WS_EVENTS:-20} interval=${BENCH_WS_INTERVAL:-5}
  port=$(free_port) || die "no free port"
  ./jbang bench/WsTurnProbe.java serve -port "$port" >"$RES/ws-fake.log" 2>&1 &
  pid=$!
  own "$pid"
  wait_http "http://127.0.0.1:$port/health" "$pid" 120 || die "the WebSocket fake did not start (see $RES/ws-fake.log)"
  launch_proxy ws-shape-proxy "http://127.0.0.1:$port" /dev/null -limit "POST /v1/responses" -concurrency 64 -release-cooldown 0
  shape_port=$LAUNCHED_PORT
  local shape_started=$LAUNCHED_STARTED
  launch_proxy ws-tunnel-proxy "http://127.0.0.1:$port" /dev/null -responses-websocket tunnel
  tunnel_port=$LAUNCHED_PORT
  local tunnel_started=$LAUNCHED_STARTED
  # the shaping proxy again with every turn traced (sampling 1.0), exporting to the fake's /v1/traces
  launch_proxy ws-traced-proxy "http://127.0.0.1:$port" /dev/null -limit "POST /v1/responses" -concurrency 64 -release-cooldown 0 \
    -otel -otel-endpoint "http://127.0.0.1:$port"
  traced_port=$LAUNCHED_PORT
  local traced_started=$LAUNCHED_STARTED
  md "## Responses WebSocket turns: direct, tunnelled, shaped" "" \
    "One socket per target, turns one after another (\`bench/WsTurnProbe.java\`), $warmup unmeasured turns first, then $turns measured." \
    "**Turn** = \`response.create\` sent to \`response.completed\` received, with no events between (what termination and admission" \
    "add per turn); **event** = wall-clock delay of each of $events deltas ${interval} ms apart (stamped by the fake, read by the probe)." \
    "\`shape\`: the default mode, \`-limit \"POST /v1/responses\" -concurrency 64\` (every turn admitted, recorded, usage read);" \
    "\`tunnel\`: \`-responses-websocket tunnel\` (bytes spliced unread); \`traced\`: \`shape\` with \`-otel\` (a span tree per turn, sampling 1.0)." "" \
    "| target | turn p50 | turn p99 | event p50 | event p99 |" "| --- | ---: | ---: | ---: | ---: |"
  for target in direct tunnel shape traced; do
    case $target in
      direct) url="ws://127.0.0.1:$port/v1/responses" ;;
      tunnel) url="ws://127.0.0.1:$tunnel_port/v1/responses" ;;
      shape) url="ws://127.0.0.1:$shape_port/v1/responses" ;;
      traced) url="ws://127.0.0.1:$traced_port/v1/responses" ;;
    esac
    run_bounded 600 ./jbang bench/WsTurnProbe.java probe -url "$url" -turns "$turns" -warmup "$warmup" -events 0 \
      >"$RES/ws-$target-turns.txt" 2>"$RES/ws-$target-turns.err" || log "websocket $target: turn probe failed: $(tail -3 "$RES/ws-$target-turns.err")"
    run_bounded 600 ./jbang bench/WsTurnProbe.java probe -url "$url" -turns $((turns / 10 + 1)) -warmup $((warmup / 10 + 1)) \
      -events "$events" -interval "$interval" >"$RES/ws-$target-events.txt" 2>"$RES/ws-$target-events.err" ||
      log "websocket $target: event probe failed: $(tail -3 "$RES/ws-$target-events.err")"
    tline=$(grep -m1 '^WS_RESULT ' "$RES/ws-$target-turns.txt") eline=$(grep -m1 '^WS_RESULT ' "$RES/ws-$target-events.txt")
    if [ -z "$tline" ] || [ -z "$eline" ]; then
      md "| $target | not measured | | | |"
      continue
    fi
    M[ws.$target.turn_p50_us]=$(kv turn_p50_us "$tline")
    md "| $target | $(fmt_us "$(kv turn_p50_us "$tline")") | $(fmt_us "$(kv turn_p99_us "$tline")") | $(fmt_us "$(kv event_p50_us "$eline")") | $(fmt_us "$(kv event_p99_us "$eline")") |"
    log "websocket $target: turns: $tline; events: $eline"
  done
  md ""
  if [ -n "${M[ws.shape.turn_p50_us]}" ] && [ -n "${M[ws.tunnel.turn_p50_us]}" ]; then
    local added=$(( ${M[ws.shape.turn_p50_us]} - ${M[ws.tunnel.turn_p50_us]} ))
    check "websocket: shaped turn p50 minus tunnelled (termination + admission per turn)" "≤ 1 ms" "$(fmt_us "$added")" "$(passfail "$added <= 1000")"
  fi
  if [ -n "${M[ws.traced.turn_p50_us]}" ] && [ -n "${M[ws.shape.turn_p50_us]}" ]; then
    local traced_added=$(( ${M[ws.traced.turn_p50_us]} - ${M[ws.shape.turn_p50_us]} ))
    check "websocket: traced turn p50 minus shaped (a span tree per turn)" "≤ 1 ms" "$(fmt_us "$traced_added")" "$(passfail "$traced_added <= 1000")"
  fi
  stop_pid "$traced_started"
  stop_pid "$shape_started"
  stop_pid "$tunnel_started"
  stop_pid "$pid"
}

# Fair share between clients, scenario (a): a swarm client of FAIR_AGENTS closed-loop agents and one
# interactive client sending one request at a time, limit 4. The load is QueueLoad's priority mode; its
# X-Shaper-Priority values ("background" for the swarm, "interactive") name the clients through
# -client-id header:x-shaper-priority, with no priority class declared: FIFO, then fair share.
section_fairshare() {
  local title="## Fair share: one interactive client beside a swarm of $FAIR_AGENTS agents" probe_pid mode line
  launch_probe "$RES/fairshare-probe.log"
  probe_pid=$LAUNCHED_PID
  local probe_port=$LAUNCHED_PORT
  md "$title" "" \
    "One swarm client with $FAIR_AGENTS concurrent agents and one interactive client, closed loops (\`bench/QueueLoad.java priority\`), each request" \
    "\`POST /slow/v1/messages?delay=100ms\`, through a proxy at \`-limit-all=true -concurrency 4 -release-cooldown 0 -queue-timeout 0\`:" \
    "every request anonymous (today's FIFO), then \`-client-id header:x-shaper-priority\` (the header names the two clients; no class is declared)." \
    "${FAIR_SECONDS} s measured after ${FAIR_WARMUP} s of warm-up. Wait = latency minus the service time." "" \
    "| queue | interactive wait p50 | interactive latency p90 | swarm wait p50 | requests (interactive / swarm) |" \
    "| --- | ---: | ---: | ---: | ---: |"
  local fifo_wait="" fair_wait=""
  for mode in fifo fair; do
    local extra=()
    [ "$mode" = fair ] && extra=(-client-id header:x-shaper-priority)
    launch_proxy "fairshare-$mode-proxy" "http://127.0.0.1:$probe_port" "$RES/fairshare-$mode-proxy.log" \
      -limit-all=true -concurrency 4 -release-cooldown 0 -queue-timeout 0 "${extra[@]}"
    run_bounded $((FAIR_SECONDS + FAIR_WARMUP + 180)) ./jbang bench/QueueLoad.java priority -proxy "http://127.0.0.1:$LAUNCHED_PORT" \
      -background "$FAIR_AGENTS" -interactive 1 -seconds "$FAIR_SECONDS" -warmup "$FAIR_WARMUP" \
      >"$RES/fairshare-$mode.txt" 2>"$RES/fairshare-$mode.err" || log "fairshare $mode: client failed: $(tail -3 "$RES/fairshare-$mode.err")"
    stop_pid "$LAUNCHED_STARTED"
    line=$(grep -m1 '^PRIORITY_RESULT ' "$RES/fairshare-$mode.txt")
    if [ -z "$line" ]; then
      md "| $mode | not measured | | | |"
      continue
    fi
    md "| $([ "$mode" = fair ] && echo 'fair share' || echo 'FIFO (anonymous)') | $(kv interactive_wait_p50_ms "$line") ms | $(kv interactive_p90_ms "$line") ms | $(kv background_wait_p50_ms "$line") ms | $(kv interactive_n "$line") / $(kv background_n "$line") |"
    [ "$mode" = fifo ] && fifo_wait=$(kv interactive_wait_p50_ms "$line") || fair_wait=$(kv interactive_wait_p50_ms "$line")
  done
  md ""
  if [ -n "$fifo_wait" ] && [ -n "$fair_wait" ]; then
    check "fairshare: interactive wait p50, fair share vs FIFO" "lower" "$fair_wait ms vs $fifo_wait ms" "$(passfail "$fair_wait < $fifo_wait")"
  fi
  stop_pid "$probe_pid"
}

section_queue10k() {
  local n=$QUEUE_N need hard up_started px_started line title
  title="## $n queued clients behind a limit of 4"
  need=$((n + 1024))
  hard=$(ulimit -Hn)
  if [ "$hard" != unlimited ] && [ "$hard" -lt "$need" ]; then
    md "$title" "" "- skipped: \`ulimit -Hn\` is $hard, the client and the proxy each need $need descriptors." ""
    check "queue$n: all served" "$n / $n" "skipped (ulimit -Hn $hard)" "n/a"
    return
  fi
  # The proxy and the client inherit this soft limit (the hard one caps it).
  if [ "$(ulimit -Sn)" != unlimited ] && [ "$(ulimit -Sn)" -lt "$need" ]; then
    ulimit -Sn "$([ "$hard" = unlimited ] && echo $((need * 2)) || echo "$hard")" || die "cannot raise ulimit -n to $need"
  fi
  launch_upstream "$RES/queue10k-upstream.log"
  QUP_PORT=$LAUNCHED_PORT up_started=$LAUNCHED_PID
  LAUNCH_JBANG_OPTS=()
  local w
  # One --java-options per flag: jbang passes each value to java as a single argument.
  for w in $QUEUE_JAVA_OPTIONS; do LAUNCH_JBANG_OPTS+=("--java-options=$w"); done
  launch_proxy queue10k-proxy "http://127.0.0.1:$QUP_PORT" "$RES/queue10k-proxy.log" \
    -limit-all=true -concurrency 4 -release-cooldown 0 -queue-timeout 0
  LAUNCH_JBANG_OPTS=()
  QPROXY_PORT=$LAUNCHED_PORT QPROXY_PID=$LAUNCHED_PID px_started=$LAUNCHED_STARTED
  local jvm_flags
  jvm_flags=$(tr '\0' '\n' <"/proc/$QPROXY_PID/cmdline" | grep -E '^-X' | tr '\n' ' ' | sed 's/ $//')
  log "queue10k: upstream 127.0.0.1:$QUP_PORT, proxy pid $QPROXY_PID on 127.0.0.1:$QPROXY_PORT (ulimit -n $(ulimit -Sn); $jvm_flags)"
  # Warms the queue path (c=16 over 4 slots: most requests wait) before the flood.
  wrk_run queue10k-warmup queue 16 "$WARMUP_OTHERS" /queue/1k >/dev/null || log "queue10k: warm-up failed"
  local bound=$((QUEUE_TIMEOUT + 180))
  log "queue10k: $n clients, upstream delay $QUEUE_DELAY, send gap $QUEUE_GAP (bound ${bound}s)"
  run_bounded "$bound" ./jbang bench/QueueFlood.java -proxy "http://127.0.0.1:$QPROXY_PORT" -upstream "http://127.0.0.1:$QUP_PORT" \
    -n "$n" -path /queue/1k -delay "$QUEUE_DELAY" -gap "$QUEUE_GAP" -limit 4 -proxy-pid "$QPROXY_PID" \
    -timeout "${QUEUE_TIMEOUT}s" -stall "${QUEUE_STALL}s" -dump "$RES/queue10k-order.csv" \
    >"$RES/queue10k.txt" 2>"$RES/queue10k.err" || log "queue10k: client failed: $(tail -3 "$RES/queue10k.err")"
  line=$(grep -m1 '^FLOOD_RESULT ' "$RES/queue10k.txt")
  local proxy_alive=yes oom
  alive "$QPROXY_PID" || proxy_alive=no
  oom=$(grep -c 'OutOfMemoryError' "$RES/queue10k-proxy.err" 2>/dev/null)
  rss_of "$QPROXY_PID" "queue$n proxy at the end (flood connections closed)"
  stop_pid "$px_started"
  stop_pid "$up_started"
  QPROXY_PID=""
  md "$title" "" \
    "A proxy and a fake upstream of their own: \`-limit-all=true -concurrency 4 -release-cooldown 0 -queue-timeout 0\`, JVM flags \`$jvm_flags\`." \
    "\`bench/QueueFlood.java\` closes the upstream's gate (the first 4 admitted requests wait there, so every later one queues in the proxy)," \
    "opens $n keep-alive connections, then sends request i = \`GET /queue/1k?seq=i&delay=$QUEUE_DELAY&gate=1\` on connection i, in order from one thread, each $QUEUE_GAP after the previous." \
    "Once the kernel holds no unread request for the proxy (all read, so all queued) it measures the proxy's CPU for 2 s of pure waiting, samples RSS and heap" \
    "(\`jstat -gc\`), opens the gate and reads every response (giving up after ${QUEUE_STALL}s without a new one). The upstream answers each after $QUEUE_DELAY" \
    "and numbers requests in arrival order (\`X-Served-Index\`). Inversions: pairs that reached the upstream against send order;" \
    "\"far\" ones are 4 or more positions apart (requests admitted together may reach the upstream in any order; farther means one overtook the queue)." \
    "Per-request data: \`bench/results/last/queue10k-order.csv\`." ""
  if [ -z "$line" ]; then
    md "- **failed:** no result from the client (see bench/results/last/queue10k.err): $(tail -2 "$RES/queue10k.err" | tr '\n' ' ')" ""
    check "queue$n: all served" "$n / $n" "not measured" "FAIL"
    return
  fi
  local k
  for k in n connected sent ok errors timed_out stalled proxy_health_after connect_s send_s read_all_s unread_at_sample proxy_connections_at_sample \
      proxy_cpu_queued_pct answered_while_gated upstream_inflight_gated drain_s total_s drain_rps inversions far_inversions \
      max_displacement duplicate_indexes upstream_inflight_peak upstream_seq_served error_kinds \
      rss_before_kb hwm_before_kb rss_connected_kb hwm_connected_kb rss_queued_kb hwm_queued_kb rss_end_kb hwm_end_kb \
      heap_queued_used_mb heap_queued_committed_mb full_gcs_queued heap_end_used_mb heap_end_committed_mb full_gcs_end; do
    M[q.$k]=$(kv "$k" "$line")
  done
  local queued=$(( ${M[q.sent]} - ${M[q.unread_at_sample]} - ${M[q.answered_while_gated]} - ${M[q.upstream_inflight_gated]} )) ceiling outcome read_all
  ceiling=$(awk -v d="$QUEUE_DELAY" 'BEGIN { ms = d + 0; if (d ~ /us$|µs$/) ms /= 1000; else if (d !~ /ms$/ && d ~ /s$/) ms *= 1000; if (ms > 0) printf "%.0f", 4000 / ms; else print "?" }')
  read_all="${M[q.read_all_s]} s"
  [ "${M[q.unread_at_sample]}" = 0 ] || read_all="**no**: ${M[q.unread_at_sample]} connections still had unread requests after ${M[q.read_all_s]} s"
  outcome="all answered"
  [ "${M[q.stalled]}" = true ] && outcome="**stalled**: no new answer for ${QUEUE_STALL}s"
  [ "${M[q.timed_out]}" = true ] && outcome="**timed out** after ${QUEUE_TIMEOUT}s"
  md "| measure | value |" "| --- | ---: |" \
    "| clients connected / requests sent | ${M[q.connected]} / ${M[q.sent]} |" \
    "| answered 200 | **${M[q.ok]}** ($outcome) |" \
    "| errors | ${M[q.errors]} (${M[q.error_kinds]}) |" \
    "| connect all / send all | ${M[q.connect_s]} s / ${M[q.send_s]} s |" \
    "| all requests read by the proxy, after the last send | $read_all |" \
    "| at the sample: connections at the proxy / in flight at the upstream / queued in the proxy | ${M[q.proxy_connections_at_sample]} / ${M[q.upstream_inflight_gated]} / $queued |" \
    "| proxy CPU while they wait (nothing else happening) | ${M[q.proxy_cpu_queued_pct]}% of a core |" \
    "| proxy RSS (peak): before the flood | $(fmt_mb "${M[q.rss_before_kb]}") ($(fmt_mb "${M[q.hwm_before_kb]}")) |" \
    "| proxy RSS (peak): $n connections open, idle | $(fmt_mb "${M[q.rss_connected_kb]}") ($(fmt_mb "${M[q.hwm_connected_kb]}")) |" \
    "| proxy RSS (peak): $queued queued | **$(fmt_mb "${M[q.rss_queued_kb]}")** ($(fmt_mb "${M[q.hwm_queued_kb]}")) |" \
    "| proxy heap used / committed, full GCs: $queued queued | ${M[q.heap_queued_used_mb]} MB / ${M[q.heap_queued_committed_mb]} MB, ${M[q.full_gcs_queued]} |" \
    "| drain after the gate opened (total from first send) | ${M[q.drain_s]} s (${M[q.total_s]} s) |" \
    "| drain throughput (ceiling: 4 slots / $QUEUE_DELAY) | $(fmt_rps "${M[q.drain_rps]}") req/s ($ceiling) |" \
    "| upstream peak in flight | **${M[q.upstream_inflight_peak]}** |" \
    "| requests that reached the upstream (a retry would add) | ${M[q.upstream_seq_served]} |" \
    "| inversions: all / far (≥ 4 apart) | ${M[q.inversions]} / **${M[q.far_inversions]}** |" \
    "| max displacement (arrival rank − send rank) | ${M[q.max_displacement]} |" \
    "| proxy RSS (peak) after the drain, connections still open | $(fmt_mb "${M[q.rss_end_kb]}") ($(fmt_mb "${M[q.hwm_end_kb]}")) |" \
    "| proxy heap used / committed, full GCs: after the drain | ${M[q.heap_end_used_mb]} MB / ${M[q.heap_end_committed_mb]} MB, ${M[q.full_gcs_end]} |" \
    "| proxy answers \`/__shaper/health\` afterwards / process alive | ${M[q.proxy_health_after]} / $proxy_alive |" \
    "| \`OutOfMemoryError\` lines in the proxy's stderr | ${oom:-0} |" ""
  if grep -q '^FLOOD_ERROR' "$RES/queue10k.txt"; then
    md "First errors (of ${M[q.errors]}):" "" '```' "$(grep -m10 '^FLOOD_ERROR' "$RES/queue10k.txt" | cut -c1-300)" '```' ""
  fi
  if [ -s "$RES/queue10k-proxy.err" ]; then
    md "Proxy stderr, distinct lines without stack frames (full: \`bench/results/last/queue10k-proxy.err\`):" "" '```' \
      "$(grep -v -e '^[[:space:]]*at ' -e '^[[:space:]]*$' "$RES/queue10k-proxy.err" | sed 's/^[A-Z][a-z][a-z] [0-9].* [AP]M //' | sort | uniq -c | sort -rn | head -8 | cut -c1-300)" '```' ""
  fi
  log "queue10k: ok=${M[q.ok]}/$n errors=${M[q.errors]} (${M[q.error_kinds]}) stalled=${M[q.stalled]} peak_inflight=${M[q.upstream_inflight_peak]} inversions=${M[q.inversions]} far=${M[q.far_inversions]} rss_queued=$(fmt_mb "${M[q.rss_queued_kb]}") hwm=$(fmt_mb "${M[q.hwm_end_kb]}") heap=${M[q.heap_queued_used_mb]}MB cpu=${M[q.proxy_cpu_queued_pct]}% oom=${oom:-0}"
  check "queue$n: all served" "$n / $n" "${M[q.ok]} / $n (${M[q.errors]} errors; ${outcome//\*/})" "$(passfail "${M[q.ok]} == $n")"
  check "queue$n: upstream peak in flight" "≤ 4" "${M[q.upstream_inflight_peak]}" \
    "$(passfail "${M[q.upstream_inflight_peak]} >= 0 && ${M[q.upstream_inflight_peak]} <= 4")"
  local heap_note=""
  [ "${oom:-0}" -gt 0 ] && heap_note="; but the JVM heap (${M[q.heap_queued_committed_mb]} MB) ran out: OutOfMemoryError"
  check "queue$n: proxy RSS with $queued queued" "≤ 1 GB" "$(fmt_mb "${M[q.rss_queued_kb]}") (peak $(fmt_mb "${M[q.hwm_end_kb]}"))$heap_note" \
    "$(passfail "${M[q.hwm_end_kb]} > 0 && ${M[q.hwm_end_kb]} <= 1024 * 1024")"
  if [ "${M[q.ok]}" -lt 2 ]; then
    check "queue$n: FIFO (no inversion ≥ 4 apart)" "0" "not measured (${M[q.ok]} answered)" "n/a"
  else
    # Admission itself is strict FIFO per limiter (FifoLimiterTest, QueueSemanticsTest); what this
    # row sees is the wire order the client sent in, which the JDK's socket read pollers may
    # reorder by a few milliseconds before the proxy has even read a request.
    check "queue$n: served in the client's send order (reported)" "FIFO at the limiter" \
      "${M[q.far_inversions]} of ${M[q.ok]} answers ≥ 4 places from send order (all inversions ${M[q.inversions]}, max displacement ${M[q.max_displacement]})" \
      "n/a"
    md "Order: each limiter admits in strict FIFO order of the requests it has read (proven by the test suite:" \
      "\`FifoLimiterTest\`, \`QueueSemanticsTest#waitersAreAdmittedInArrivalOrder\`). Requests sent 1 ms apart on" \
      "10,000 connections reach the proxy's handlers in a slightly different order, because the JDK reads sockets" \
      "through several pollers; the largest displacement above is that skew (${M[q.max_displacement]} places ≈ as many ms)." ""
  fi
}

# The upstream client was chosen before this script existed; its measurement is kept here with its source.
report_client_choice() {
  md "## Upstream client choice" "" \
    "Measured while choosing the stack (shared/STACK.md, same 2-core machine kind, one run, the same streaming" \
    "handler, only the upstream client changed; 1 KiB responses). The proxy used Helidon's \`Http1Client\` until issue 17;" \
    "it now uses its own HTTP/1.1 client (\`lib/shaper/proxy/client\`), measured 1.14× faster than \`Http1Client\` at c=16 (BENCHMARKS.md)." "" \
    "| upstream client | c=16 RPS | c=128 RPS | added at c=1, p50 / p99 |" "| --- | ---: | ---: | --- |" \
    "| nginx, 1 worker, keepalive upstream (reference) | 42.1k | 35.4k | +49 µs / +142 µs |" \
    "| JDK HttpClient, default executor | 9.6k | 11.2k | +262 µs / +3.0 ms |" \
    "| JDK HttpClient, \`executor(Runnable::run)\` | 14.2k | 18.3k | +185 µs / +1.39 ms |" \
    "| Helidon \`Http1Client\`, flush after every read | 18.7k | 17.7k | +150 µs / +0.92 ms |" \
    "| Helidon \`Http1Client\`, flush only when the next read would block (used until issue 17) | 21.2k | 21.5k | +125 µs / +1.03 ms |" ""
}

# Always last: the samples taken so far plus one at the end of the run.
report_memory() {
  rss_sample "end of run (after all load)" end
  md "## Proxy memory" "" "RSS of the proxy JVM from /proc/PID/status (VmRSS now, VmHWM peak so far). JVM flags: \`$JVM_FLAGS\`." "" \
    "| when | RSS | peak RSS |" "| --- | ---: | ---: |" "${RSS_ROWS[@]}" ""
  local kb=${M[rss.end.kb]:-}
  if [ -z "$kb" ]; then
    check "proxy RSS after load" "≤ 200 MB" "not measured" "n/a"
  else
    check "proxy RSS after load" "≤ 200 MB" "$(fmt_mb "$kb") (idle $(fmt_mb "${M[rss.idle.kb]:-0}"), peak $(fmt_mb "${M[rss.end.hwm]}"))" \
      "$(passfail "$kb <= 200 * 1024")"
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
    [ -z "$BASELINE_REV" ] || echo "- Baseline (target \`baseline\`): the proxy of commit $BASELINE_REV, same flags and upstream, in this same run"
    echo "- nginx $("$NGINX_BIN" -v 2>&1 | sed 's/^.*nginx\///'): 1 worker, upstream \`keepalive 256\`, \`proxy_http_version 1.1\`, \`proxy_buffering off\`, \`access_log off\`"
    echo "- Upstream: \`bench/FakeUpstream.java\` (raw sockets, one platform thread per connection)"
    echo "- Command: \`${cmd}bench/run.sh\` (warm-up ${WARMUP}s through the proxy; sections: $SECTIONS)"
    echo
    echo "Reproduce: \`bench/run.sh\` (eight sections at c=1 and 16 with 8 s runs, as in the run at the top of BENCHMARKS.md: 14 minutes, the SSE section 2 of them; every section at the default settings takes longer; \`BENCH_QUICK=1\` about 4: it shortens the wrk and SSE runs and the SSE warm-up, not the queue section). One section alone: \`BENCH_SECTIONS=\"admission queue10k\" bench/run.sh\`. Settings are environment variables documented at the top of \`bench/run.sh\`; raw wrk and probe output lands in \`bench/results/last/\`."
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
  if [ "$OUT" != "-" ]; then
    # the report replaces the latest run; the history kept below it (from "## History" on) stays
    local hist
    hist=$(awk '/^## History$/ { keep = 1 } keep' "$OUT" 2>/dev/null)
    cp "$file" "$OUT" && log "report written to $OUT"
    if [ -n "$hist" ]; then printf '\n%s\n' "$hist" >>"$OUT"; fi
  fi
}

# --- main ----------------------------------------------------------------------------------
main() {
  cd "$ROOT" || exit 1
  local s t
  for s in $SECTIONS; do declare -F "section_$s" >/dev/null || die "unknown section '$s' in BENCH_SECTIONS"; done
  for t in $TARGETS; do
    case $t in direct | nginx | proxy | baseline) ;; *) die "unknown target '$t' in BENCH_TARGETS (expected direct, nginx, proxy, baseline)" ;; esac
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
  for s in Shaper.java ProbeServer.java bench/FakeUpstream.java bench/SseProbe.java bench/QueueFlood.java bench/TokenAgents.java bench/QueueLoad.java bench/WsTurnProbe.java bench/StreamHerd.java; do
    run_bounded 900 ./jbang build "$s" >>"$RES/build.log" 2>&1 || die "build of $s failed (see $RES/build.log)"
  done
  if [ -n "$BASELINE_REV" ]; then
    BASE_ROOT=$TMP/baseline
    mkdir -p "$BASE_ROOT" && git archive "$BASELINE_REV" | tar -x -C "$BASE_ROOT" || die "cannot export $BASELINE_REV"
    BASELINE_REV=$(git rev-parse --short "$BASELINE_REV")
    run_bounded 900 ./jbang build "$BASE_ROOT/Shaper.java" >>"$RES/build.log" 2>&1 || die "build of the baseline failed (see $RES/build.log)"
  fi

  start_upstream
  start_proxy
  start_baseline
  start_nginx
  start_bare
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
  report_client_choice
  write_report
  if [ "$STRICT" = 1 ] && grep -q '\*\*FAIL' "$RES/checks.md"; then
    log "a target failed (BENCH_STRICT=1)"
    exit 1
  fi
}

main "$@"
