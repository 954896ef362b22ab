#!/usr/bin/env bash
# Set-up time as a newcomer meets it: a fresh clone, `make play` (niced), timed until the
# app's first page answers; then the time until the compiled build is ready, if the play
# started on the pure-Python path. Prints the load average along the way.
#   bench/first_page.sh [REPO (default: this checkout)] [WORKDIR (default: a temp dir)] [PORT]
set -u
src=${1:-$(cd "$(dirname "$0")/.." && pwd)}
dir=${2:-$(mktemp -d)/kingdoms}
port=${3:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
if ss -ltn 2>/dev/null | grep -q ":$port "; then echo "port $port is busy" >&2; exit 1; fi
rm -rf "$dir" && git clone -q "$src" "$dir" || exit 1
cd "$dir" || exit 1
log=$dir/../play.log
echo "fresh clone in $dir, port $port, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(date +%s.%N)
since() { printf '%.0f' "$(echo "$(date +%s.%N) - $t0" | bc)"; }
setsid nice -n 10 make play PORT="$port" >"$log" 2>&1 &
pid=$!
trap 'kill -- -$pid 2>/dev/null' EXIT
while :; do
  owner=$(ss -ltnp "sport = :$port" 2>/dev/null | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
  if [ -n "$owner" ] && [ "$(readlink "/proc/$owner/cwd")" != "$dir" ]; then
    echo "port $port was taken by another process" >&2; exit 1
  fi
  if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/")" = 200 ]; then
    echo "first page after $(since) s (load $(cut -d' ' -f1-3 /proc/loadavg))"
    break
  fi
  if ! kill -0 "$pid" 2>/dev/null; then echo "make play stopped without serving:"; tail -20 "$log"; exit 1; fi
  sleep 1
done
grep '^kingdoms:' "$log"
# the compiled build, when the play started without it
while [ -f "$dir/.venv/.setup.lock" ] && ! flock -n "$dir/.venv/.setup.lock" true; do sleep 5; done
if [ -f "$dir/.venv/.built-stamp" ]; then
  echo "compiled build ready after $(since) s: $("$dir/.venv/bin/kingdoms" --version)"
fi
