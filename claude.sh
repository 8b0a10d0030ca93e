#!/bin/sh
# ./claude.sh [--settings FILE|JSON] [claude args...]: Claude Code through the shaper, in your working directory.
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd) && exec "$here/jbang" -Dshaper.root="$here" "$here/ClaudeLauncher.java" "$@"
