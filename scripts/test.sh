#!/usr/bin/env bash
# The whole test suite: lint, types, then pytest with a real PostgreSQL and Redis on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}

work=$(mktemp -d /tmp/shifu-test.XXXXXX)
chmod 755 "$work"
cleanup() {
  scripts/postgres.sh stop "$work/pg" || true
  scripts/redis.sh stop "$work/redis" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "== ruff"
"$VENV/bin/ruff" check src tests bench
"$VENV/bin/ruff" format --check src tests bench
echo "== mypy --strict src"
"$VENV/bin/mypy" src
echo "== services"
SHIFU_TEST_POSTGRES_URL=$(scripts/postgres.sh start "$work/pg")
SHIFU_TEST_REDIS_URL=$(scripts/redis.sh start "$work/redis")
export SHIFU_TEST_POSTGRES_URL SHIFU_TEST_REDIS_URL
echo "postgres and redis up on loopback"
echo "== pytest"
"$VENV/bin/pytest" -q -p no:cacheprovider "$@"
