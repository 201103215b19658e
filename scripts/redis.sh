#!/usr/bin/env bash
# Starts (or stops) a throwaway redis-server on loopback for the conversation-store tests.
#   scripts/redis.sh start DIR   → start on a free port (no persistence), print the redis:// URL
#   scripts/redis.sh stop DIR    → stop it (by the pidfile in DIR)
# Installs Debian's redis-server with apt-get when the binary is missing.
set -euo pipefail

action=${1:?start|stop}
dir=${2:?state directory}

ensure_binary() {
  command -v redis-server >/dev/null 2>&1 && return 0
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    { apt-get install -y redis-server || { apt-get update && apt-get install -y redis-server; }; } >"$dir/apt.log" 2>&1 || true
  fi
  command -v redis-server >/dev/null 2>&1 || {
    echo "redis-server not found and could not be installed (apt-get install redis-server)" >&2
    exit 1
  }
}

case "$action" in
  start)
    mkdir -p "$dir"
    ensure_binary
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
    redis-server --bind 127.0.0.1 --port "$port" --save "" --appendonly no \
      --dir "$dir" --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" --daemonize yes >/dev/null
    for _ in $(seq 1 100); do
      redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1 && { echo "redis://127.0.0.1:$port/0"; exit 0; }
      sleep 0.05
    done
    echo "redis-server did not start; see $dir/redis.log" >&2
    exit 1
    ;;
  stop)
    if [ -f "$dir/redis.pid" ]; then
      kill "$(cat "$dir/redis.pid")" 2>/dev/null || true
      rm -f "$dir/redis.pid"
    fi
    ;;
  *)
    echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
