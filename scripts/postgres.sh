#!/usr/bin/env bash
# Starts (or stops) a throwaway PostgreSQL server on loopback for the storage tests.
#   scripts/postgres.sh start DIR   → initdb into DIR, start on a free port, print the SQLAlchemy URL
#   scripts/postgres.sh stop DIR    → stop it
# Runs the server as the `postgres` system user (PostgreSQL refuses to run as root).
set -euo pipefail

action=${1:?start|stop}
dir=${2:?data directory}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || { echo "PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }

as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$action" in
  start)
    mkdir -p "$dir"
    chmod 755 "$(dirname "$dir")"
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      as_pg "$bin/initdb" -D "$dir/data" -E UTF8 --locale=C.UTF-8 -A trust -U postgres >"$dir/initdb.log" 2>&1
    fi
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
    as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c full_page_writes=off" start >/dev/null
    as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -qAt -c "CREATE DATABASE shifu_test" >/dev/null
    echo "postgresql+psycopg://postgres@127.0.0.1:$port/shifu_test"
    ;;
  stop)
    [ -d "$dir/data" ] && as_pg "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    ;;
  *)
    echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
