#!/bin/sh
# Runs the whole test suite (or the test classes named as arguments, e.g. ./smoke.sh ProxyHeadersTest).
# The last line printed is "N passed, N failed"; the exit code is non-zero on any failure.
cd "$(dirname "$0")" || exit 1
exec ./jbang test/RunTests.java "$@"
