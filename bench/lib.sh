# shellcheck shell=bash
# Helpers for bench/run.sh: bounded steps, processes owned by PID, free ports, number
# formatting and the report. Sourced, never run. Expects ROOT, RES and TMP to be set.

log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# --- bounded steps -------------------------------------------------------------------------
# run_bounded SECONDS CMD...: runs CMD under timeout(1) as a background job and waits for it, so
# the exit trap can run (and stop it) at once instead of after the step ends.
STEP_PID=""
run_bounded() {
  local secs=$1; shift
  timeout --kill-after=5 "$secs" "$@" &
  STEP_PID=$!
  local rc=0
  wait "$STEP_PID" || rc=$?
  STEP_PID=""
  if [ "$rc" = 124 ]; then log "step timed out after ${secs}s: $*"; fi
  return "$rc"
}

# --- processes we own ----------------------------------------------------------------------
# Every long-lived process is recorded with its PID and stopped by that PID at exit.
OWNED_PIDS=()
own() { OWNED_PIDS+=("$1"); }

alive() { kill -0 "$1" 2>/dev/null; }

# stop_pid PID: TERM, wait up to 10 s, then KILL the process and the children it left.
stop_pid() {
  local pid=$1 i kids
  alive "$pid" || return 0
  kids=$(pgrep -P "$pid" 2>/dev/null || true)
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 1 100); do alive "$pid" || break; sleep 0.1; done
  if alive "$pid"; then
    log "pid $pid ignored TERM for 10 s: KILL"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  for k in $kids; do alive "$k" && kill -KILL "$k" 2>/dev/null; done
  wait "$pid" 2>/dev/null || true
}

WATCHDOG_PID=""
# start_watchdog SECONDS: TERMs this script when the whole run exceeds its budget.
start_watchdog() {
  local secs=$1 me=$$
  (
    sleep "$secs" & s=$!
    trap 'kill $s 2>/dev/null; exit 0' TERM
    wait "$s"
    echo "[bench] run exceeded BENCH_MAX_SECONDS=${secs}s: stopping" >&2
    kill -TERM "$me"
  ) &
  WATCHDOG_PID=$!
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [ -n "$STEP_PID" ]; then stop_pid "$STEP_PID"; fi
  local i
  for ((i = ${#OWNED_PIDS[@]} - 1; i >= 0; i--)); do stop_pid "${OWNED_PIDS[$i]}"; done
  if [ -n "$WATCHDOG_PID" ]; then kill -TERM "$WATCHDOG_PID" 2>/dev/null; wait "$WATCHDOG_PID" 2>/dev/null; fi
  if [ -n "${TMP:-}" ] && [ -d "$TMP" ]; then rm -rf "$TMP"; fi
  exit "$rc"
}

# --- ports and readiness -------------------------------------------------------------------
# A random port below the ephemeral range that nothing listens on (checked with a connect).
# The caller retries when the bind still loses a race.
free_port() {
  local p i
  for i in $(seq 1 100); do
    p=$((20000 + RANDOM % 12000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return 0; fi
  done
  return 1
}

# wait_http URL PID SECONDS: polls until URL answers 2xx; fails early when PID died.
wait_http() {
  local url=$1 pid=$2 secs=$3 i
  for ((i = 0; i < secs * 10; i++)); do
    alive "$pid" || return 1
    if curl -fs -o /dev/null --max-time 1 "$url"; then return 0; fi
    sleep 0.1
  done
  return 1
}

# --- tools ---------------------------------------------------------------------------------
# ensure_tools CMD:PACKAGE...: installs the Debian packages of missing commands (root only).
ensure_tools() {
  local missing=() spec cmd pkg
  for spec in "$@"; do
    cmd=${spec%%:*}; pkg=${spec#*:}
    command -v "$cmd" >/dev/null 2>&1 || [ -x "/usr/sbin/$cmd" ] || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ "$(id -u)" = 0 ] || die "missing ${missing[*]}: install them (apt-get install -y ${missing[*]}) or run as root"
  log "installing ${missing[*]} with apt-get"
  # Debian's postinst would start a system-wide nginx on port 80: forbid service starts meanwhile.
  local policy=/usr/sbin/policy-rc.d created=0 rc=0
  if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && created=1; fi
  export DEBIAN_FRONTEND=noninteractive
  if ! run_bounded 600 apt-get install -y -q "${missing[@]}" >>"$RES/apt.log" 2>&1; then
    run_bounded 600 apt-get update -q >>"$RES/apt.log" 2>&1 &&
      run_bounded 600 apt-get install -y -q "${missing[@]}" >>"$RES/apt.log" 2>&1 || rc=$?
  fi
  [ "$created" = 1 ] && rm -f "$policy"
  [ "$rc" = 0 ] || die "apt-get install ${missing[*]} failed (see $RES/apt.log)"
}

# --- numbers -------------------------------------------------------------------------------
# kv KEY LINE: the value of KEY=... in a "WRK_RESULT a=1 b=2" style line.
kv() { printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -1; }
calc() { awk "BEGIN { printf \"%.${2:-2}f\", $1 }"; }
# fmt_us MICROS: 850 µs / 1.25 ms / 2.10 s, sign kept.
fmt_us() {
  awk -v u="$1" 'BEGIN { s = u < 0 ? "-" : ""; a = u < 0 ? -u : u;
    if (a < 1000) printf "%s%d µs", s, a; else if (a < 1e6) printf "%s%.2f ms", s, a / 1000; else printf "%s%.2f s", s, a / 1e6 }'
}
fmt_diff_us() { fmt_us "$(($1 - $2))"; }
fmt_rps() { awk -v r="$1" 'BEGIN { if (r >= 1000) printf "%.1fk", r / 1000; else printf "%.0f", r }'; }
fmt_mb() { awk -v k="$1" 'BEGIN { printf "%.0f MB", k / 1024 }'; }
# proc_kb PID FIELD: a /proc/PID/status field in kB (VmRSS, VmHWM).
proc_kb() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status" 2>/dev/null; }

# --- report --------------------------------------------------------------------------------
# Sections append markdown to the body and rows to the checks table; write_report assembles.
md() { printf '%s\n' "$@" >>"$RES/body.md"; }
# check NAME THRESHOLD MEASURED RESULT (PASS, FAIL or n/a)
check() { printf '| %s | %s | %s | **%s** |\n' "$1" "$2" "$3" "$4" >>"$RES/checks.md"; }
# passfail EXPR: PASS when the awk expression holds.
passfail() { awk "BEGIN { exit !($1) }" && echo PASS || echo FAIL; }
