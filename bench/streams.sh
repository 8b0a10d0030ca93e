# shellcheck shell=bash
# Sections of bench/run.sh about many concurrent event streams; sourced by it, never run.
#
#   streams       BENCH_STREAMS_COUNTS concurrent streams (default "200 2000 5000") of one event per
#                 BENCH_STREAMS_INTERVAL_MS (1000) each, measured over BENCH_STREAMS_WINDOW seconds (30),
#                 through direct, nginx and the proxy one after another at each count, with
#                 bench/StreamHerd.java on both ends (one selector thread each): per-event delay
#                 percentiles, CPU per event and RSS of the process under test, the client's own CPU.
#                 The proxy runs with -retry 0 -release-cooldown 0 plus BENCH_STREAMS_PROXY_ARGS.
#   streams_soak  BENCH_SOAK_STREAMS (1000) streams held BENCH_SOAK_MINUTES (10) through the proxy,
#                 BENCH_SOAK_CHURN (0.1) of them closed by the client mid-stream and reopened every
#                 minute; RSS per minute, then threads, descriptors and slots before and after.
# Both start their own upstream, nginx and proxy, so they run alone too: BENCH_SECTIONS=streams.

STREAMS_COUNTS=${BENCH_STREAMS_COUNTS:-"200 2000 5000"}
STREAMS_INTERVAL_MS=${BENCH_STREAMS_INTERVAL_MS:-1000}
STREAMS_WINDOW=${BENCH_STREAMS_WINDOW:-30}
STREAMS_PROXY_ARGS=${BENCH_STREAMS_PROXY_ARGS:-}
SOAK_STREAMS=${BENCH_SOAK_STREAMS:-1000}
SOAK_MINUTES=${BENCH_SOAK_MINUTES:-10}
SOAK_CHURN=${BENCH_SOAK_CHURN:-0.1}
SUP_PORT="" SUP_PID="" SNGINX_PORT="" SNGINX_PID="" SPROXY_PORT="" SPROXY_PID=""

# raise_nofile NEED: raises the soft descriptor limit towards the hard one; fails when the hard one is below NEED.
raise_nofile() {
  local need=$1 hard
  hard=$(ulimit -Hn)
  if [ "$hard" != unlimited ] && [ "$hard" -lt "$need" ]; then return 1; fi
  if [ "$(ulimit -Sn)" != unlimited ] && [ "$(ulimit -Sn)" -lt "$need" ]; then
    ulimit -Sn "$([ "$hard" = unlimited ] && echo $((need * 2)) || echo "$hard")" || return 1
  fi
}

# herd TARGET_URL LABEL PIDS OUT FLAG...: one StreamHerd client run, bounded; its result line lands in OUT.
herd() {
  local url=$1 label=$2 pids=$3 out=$4 bound
  shift 4
  bound=$((STREAMS_WINDOW + 120 + SOAK_MINUTES * 60 * 2))
  run_bounded "$bound" ./jbang bench/StreamHerd.java client -target "$url" -label "$label" -pids "$(echo "$pids" | tr ' ' ',')" \
    -hz "$HZ" -interval-ms "$STREAMS_INTERVAL_MS" "$@" >"$out" 2>"$out.err" || log "streams: client $label failed: $(tail -3 "$out.err")"
}

streams_pids() {
  case $1 in
    direct) echo "$SUP_PID" ;;
    nginx) echo "$SNGINX_PID" $(pgrep -P "$SNGINX_PID") ;;
    proxy) echo "$SPROXY_PID" ;;
  esac
}

streams_url() {
  case $1 in
    direct) echo "http://127.0.0.1:$SUP_PORT" ;;
    nginx) echo "http://127.0.0.1:$SNGINX_PORT" ;;
    proxy) echo "http://127.0.0.1:$SPROXY_PORT" ;;
  esac
}

start_streams_paths() {
  local max=$1
  launch_upstream "$RES/streams-upstream.log" bench/StreamHerd.java upstream
  SUP_PID=$LAUNCHED_PID SUP_PORT=$LAUNCHED_PORT
  launch_nginx streams-nginx "$SUP_PORT" $((max * 3 + 1024))
  SNGINX_PID=$LAUNCHED_PID SNGINX_PORT=$LAUNCHED_PORT
  # shellcheck disable=SC2086 # a space-separated flag list
  launch_proxy streams-proxy "http://127.0.0.1:$SUP_PORT" "$PROXY_LOG" -retry 0 -release-cooldown 0 $STREAMS_PROXY_ARGS
  SPROXY_PID=$LAUNCHED_PID SPROXY_PORT=$LAUNCHED_PORT
  log "streams: upstream pid $SUP_PID :$SUP_PORT, nginx pid $SNGINX_PID :$SNGINX_PORT, proxy pid $SPROXY_PID :$SPROXY_PORT"
}

section_streams() {
  local n max=0 t line ramp need counts=""
  for n in $STREAMS_COUNTS; do
    need=$((2 * n + 1024))
    if raise_nofile "$need"; then counts+="${counts:+ }$n"; [ "$n" -gt "$max" ] && max=$n
    else log "streams: $n skipped: ulimit -Hn $(ulimit -Hn) is below the $need descriptors a relay needs"; fi
  done
  md "## Streams at scale" "" \
    "N concurrent event streams of one small event every ${STREAMS_INTERVAL_MS} ms each (N events per second in all), opened evenly over" \
    "max(2 s, N/1000 s), then ${STREAMS_WINDOW} s measured after 3 s of settling. Both ends are \`bench/StreamHerd.java\` (one selector" \
    "thread each, so neither costs a thread per stream); each event carries its send time, delay = arrival − send. The three paths run one" \
    "after another at each N in this same run; the proxy (\`-retry 0 -release-cooldown 0${STREAMS_PROXY_ARGS:+ $STREAMS_PROXY_ARGS}\`) was warmed first with 500 streams." \
    "CPU/event: user + system CPU of the process under test over the window / events in it (direct: the upstream alone; nginx: master + worker)." \
    "RSS: of that process at the window's end; per stream: above its RSS before the run. Client CPU: the stream client's own, % of one core." "" \
    "| streams | target | events | p50 | p90 | p99 | max | CPU/event | CPU (% core) | RSS | RSS/stream | threads | client CPU | errors |" \
    "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  if [ -z "$counts" ]; then
    md "- skipped: \`ulimit -Hn\` is $(ulimit -Hn)" ""
    return
  fi
  start_streams_paths "$max"
  log "streams: warming the proxy (500 streams, 5 s)"
  herd "$(streams_url proxy)" warm "$SPROXY_PID" "$RES/streams-warm.txt" -streams 500 -window-s 5 -ramp-s 1 -settle-s 1
  for n in $counts; do
    ramp=$((n / 1000 > 2 ? n / 1000 : 2))
    for t in direct nginx proxy; do
      log "streams: $n through $t (${STREAMS_WINDOW}s window)"
      herd "$(streams_url "$t")" "$t" "$(streams_pids "$t")" "$RES/streams-$n-$t.txt" -streams "$n" -window-s "$STREAMS_WINDOW" -ramp-s "$ramp" -settle-s 3
      line=$(grep -m1 '^STREAMS_RESULT ' "$RES/streams-$n-$t.txt")
      if [ -z "$line" ]; then
        md "| $n | $t | failed | | | | | | | | | | | |"
        continue
      fi
      local k
      for k in p50_us p90_us p99_us max_us cpu_us_per_event rss_kb errors; do M[streams.$n.$t.$k]=$(kv "$k" "$line"); done
      md "| $n | $t | $(kv events "$line") | $(fmt_us "$(kv p50_us "$line")") | $(fmt_us "$(kv p90_us "$line")") | $(fmt_us "$(kv p99_us "$line")") | $(fmt_us "$(kv max_us "$line")") | $(kv cpu_us_per_event "$line") µs | $(kv target_cpu_pct "$line") % | $(fmt_mb "$(kv rss_kb "$line")") | $(kv rss_per_stream_kb "$line") KB | $(kv threads "$line") | $(kv client_cpu_pct "$line") % | $(kv errors "$line") |"
      log "streams: $n $t p50=$(kv p50_us "$line") p99=$(kv p99_us "$line") cpu/event=$(kv cpu_us_per_event "$line")us rss=$(kv rss_kb "$line")kB errors=$(kv errors "$line")"
    done
  done
  md ""
  streams_checks
  md ""
}

streams_checks() {
  local p n
  if [ -n "${M[streams.2000.proxy.p99_us]:-}" ] && [ -n "${M[streams.2000.nginx.p99_us]:-}" ]; then
    p=${M[streams.2000.proxy.cpu_us_per_event]} n=${M[streams.2000.nginx.cpu_us_per_event]}
    check "streams 2000: CPU/event ≤ 2× nginx" "≤ 2.0×" "$p vs $n µs ($(calc "$p / ($n > 0 ? $n : 1)")×)" "$(passfail "$p <= 2 * $n")"
    p=${M[streams.2000.proxy.p99_us]} n=${M[streams.2000.nginx.p99_us]}
    check "streams 2000: p99 ≤ 1.5× nginx" "≤ 1.5×" "$(fmt_us "$p") vs $(fmt_us "$n")" "$(passfail "$p <= 1.5 * $n")"
    p=${M[streams.2000.proxy.rss_kb]}
    check "streams 2000: proxy RSS ≤ 250 MB" "≤ 250 MB" "$(fmt_mb "$p")" "$(passfail "$p <= 250 * 1024")"
  fi
  if [ -n "${M[streams.200.proxy.p99_us]:-}" ] && [ -n "${M[streams.200.nginx.p99_us]:-}" ]; then
    p=${M[streams.200.proxy.p99_us]} n=${M[streams.200.nginx.p99_us]}
    check "streams 200: p99 ≤ nginx + 1 ms" "≤ +1 ms" "$(fmt_us "$p") vs $(fmt_us "$n")" "$(passfail "$p <= $n + 1000")"
  fi
}

# proxy_series NAME: the sum of a metrics series of the soak proxy (all its label sets), or empty.
proxy_series() {
  curl -fs --max-time 2 "http://127.0.0.1:$SOAK_MPORT/metrics" | awk -v n="$1" '$1 ~ "^"n"({|$)" { s += $NF; f = 1 } END { if (f) print s + 0 }'
}
proxy_slots_active() {
  curl -fs --max-time 2 "http://127.0.0.1:$SOAK_MPORT/metrics" | awk '$1 ~ /^shaper_slots\{/ && $1 ~ /state="active"/ { s += $NF; f = 1 } END { if (f) print s + 0 }'
}
# live_heap_kb PID: the JVM's used heap right after a full collection (jcmd of the JVM's own JDK), or empty.
live_heap_kb() {
  local jcmd
  jcmd=$(dirname "$(readlink "/proc/$1/exe")")/jcmd
  [ -x "$jcmd" ] || return 0
  "$jcmd" "$1" GC.run >/dev/null 2>&1
  "$jcmd" "$1" GC.heap_info 2>/dev/null | sed -n 's/.* used \([0-9]*\)K.*/\1/p' | head -1
}
proc_threads() { awk '$1 == "Threads:" { print $2 }' "/proc/$1/status" 2>/dev/null; }
proc_fds() { find "/proc/$1/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; }

section_streams_soak() {
  local n=$SOAK_STREAMS line t0 f0 r0 h0 h1 t1 f1 i active slots pid
  raise_nofile $((2 * n + 1024)) || { md "## Streams soak" "" "- skipped: \`ulimit -Hn\` is $(ulimit -Hn)" ""; return; }
  launch_upstream "$RES/soak-upstream.log" bench/StreamHerd.java upstream
  local up_port=$LAUNCHED_PORT
  SOAK_MPORT=$(free_port) || die "no free port"
  # A limit high enough never to queue, so every stream holds a slot of a real limiter; an upstream
  # timeout longer than the soak, or the streams never churned would be cut at its 10 minutes (as they must be).
  # shellcheck disable=SC2086
  launch_proxy soak-proxy "http://127.0.0.1:$up_port" "$PROXY_LOG" -retry 0 -release-cooldown 0 -upstream-timeout "$((SOAK_MINUTES + 10))m" \
    -limit-all=true -concurrency $((n * 2)) -metrics-bind "127.0.0.1:$SOAK_MPORT" $STREAMS_PROXY_ARGS
  pid=$LAUNCHED_PID
  sleep "$IDLE_SETTLE"
  t0=$(proc_threads "$pid") f0=$(proc_fds "$pid") r0=$(proc_kb "$pid" VmRSS) h0=$(live_heap_kb "$pid")
  log "soak: $n streams for $SOAK_MINUTES min through proxy pid $pid (threads $t0, fds $f0 before)"
  herd "http://127.0.0.1:$LAUNCHED_PORT" soak "$pid" "$RES/soak.txt" -streams "$n" -soak-minutes "$SOAK_MINUTES" -churn "$SOAK_CHURN" \
    -ramp-s 2 -settle-s 3
  line=$(grep -m1 '^SOAK_RESULT ' "$RES/soak.txt")
  # Relay threads idle out of their pool after 60 s: poll (bounded) until both counts are back.
  for ((i = 0; i < 100; i++)); do
    t1=$(proc_threads "$pid") f1=$(proc_fds "$pid")
    [ "${t1:-0}" -le "$t0" ] && [ "${f1:-0}" -le "$f0" ] && break
    sleep 1
  done
  active=$(proxy_series shaper_active) slots=$(proxy_slots_active) h1=$(live_heap_kb "$pid")
  md "## Streams soak" "" \
    "$n streams through the proxy (\`-limit-all=true -concurrency $((n * 2))\`: every stream holds a slot) for $SOAK_MINUTES minutes; at each" \
    "minute the client closes $(calc "$SOAK_CHURN * 100" 0) % of them, picked at random, mid-stream and opens as many new ones. RSS, threads and" \
    "descriptors of the proxy at each minute; after the last minute every stream is closed and the counts are polled (≤ 100 s: relay" \
    "threads leave their pool after 60 s idle) until they are back to their level before the soak." "" \
    "| minute | open streams | RSS | threads | descriptors | errors |" "| ---: | ---: | ---: | ---: | ---: | ---: |" \
    "| before | 0 | $(fmt_mb "$r0") | $t0 | $f0 | |"
  grep '^SOAK_MINUTE ' "$RES/soak.txt" | while read -r row; do
    md "| $(kv minute "$row") | $(kv open "$row") | $(fmt_mb "$(kv rss_kb "$row")") | $(kv threads "$row") | $(kv fds "$row") | $(kv errors "$row") |"
  done
  md "| after (+${i}s) | 0 | $(fmt_mb "$(proc_kb "$pid" VmRSS)") | $t1 | $f1 | |" ""
  if [ -z "$line" ]; then
    md "- the soak client failed: $(tail -2 "$RES/soak.txt.err")" ""
    check "soak: RSS flat (±10 %)" "≤ 10 %" "not measured" "n/a"
    return
  fi
  md "- events $(kv events "$line"), delay p50 $(fmt_us "$(kv p50_us "$line")"), p99 $(fmt_us "$(kv p99_us "$line")"); streams closed by the client $(kv closed_by_client "$line"), broken $(kv broken "$line"), errors $(kv errors "$line")." \
    "- after: \`shaper_active\` $active, \`shaper_slots{state=\"active\"}\` $slots; live heap (after a full GC, \`jcmd GC.run\`) $((h0 / 1024)) MB before the soak, $((h1 / 1024)) MB after it." ""
  check "soak: RSS flat from minute 2 on" "≤ 10 %" "$(kv rss_spread_pct "$line") % ($(fmt_mb "$(kv rss_min_kb "$line")")–$(fmt_mb "$(kv rss_max_kb "$line")"))" "$(passfail "$(kv rss_spread_pct "$line") <= 10")"
  check "soak: no slot leaked" "0 active" "shaper_active ${active:-?}, slots ${slots:-?}" "$(passfail "${active:-1} == 0 && ${slots:-1} == 0")"
  check "soak: no heap leaked (live heap after a full GC)" "≤ before + 8 MB" "$((h0 / 1024)) MB → $((h1 / 1024)) MB" "$(passfail "${h1:-999999999} <= ${h0:-0} + 8192")"
  # A leak grows with the streams closed (1,500 with the defaults). What the first streams start once and keep
  # does not: the JDK's socket poller thread and its epoll descriptors, its delay scheduler, the proxy's
  # timer thread (measured: +3 threads, +4 descriptors on a proxy that had served no stream before).
  check "soak: no thread or descriptor leaked" "≤ before + 8" "threads $t0 → $t1, fds $f0 → $f1" "$(passfail "$t1 <= $t0 + 8 && $f1 <= $f0 + 8")"
  check "soak: no errors" "0" "$(kv errors "$line")" "$(passfail "$(kv errors "$line") == 0")"
}
