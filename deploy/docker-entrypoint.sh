#!/bin/sh
# The container's entry point (docs/deploy.md): one image for every process.
#
#   api [--migrate]      the HTTP API (GraphQL, REST, /healthz, /metrics) on PORT
#   worker [--migrate]   the BullMQ ingest worker (needs REDIS_URL); /healthz on AGENTIC_RAG_WORKER_METRICS_PORT
#   mcp [--migrate] [--http]   the MCP server: stdio, or streamable HTTP on AGENTIC_RAG_MCP_PORT
#   migrate              apply pending migrations to DATABASE_URL, then exit
#   keys <args>          manage API keys (create / list / revoke), as `pnpm rag:keys`
#   anything else        run as a command (`sh`, `node -v`)
#
# Every service also migrates when it starts (under an advisory lock, so starts may race); `--migrate`
# and the `migrate` job make it a separate step that fails loudly before anything serves traffic.
# It runs the compiled output directly, not through scripts/run-compiled.mjs: the image holds dist/
# without the sources, so there is nothing to rebuild. Plain POSIX sh: the slim image has no bash.
set -eu

root=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)

# --conditions=agentic-rag-dist resolves @agentic-rag/core to its dist/, as `pnpm start` does.
migrate() {
  node --conditions=agentic-rag-dist "$root/packages/agentic-rag/dist/cli/migrate.js"
}

role=${1:-api}
if [ "$#" -gt 0 ]; then shift; fi

case "$role" in
  api | worker | mcp)
    if [ "${1:-}" = "--migrate" ]; then
      shift
      migrate
    fi
    # exec: the app is the process Docker signals, and it shuts down cleanly on SIGTERM.
    exec node --conditions=agentic-rag-dist "$root/apps/$role/dist/main.js" "$@"
    ;;
  migrate)
    [ "$#" -eq 0 ] || {
      echo "migrate takes no arguments, got: $*" >&2
      exit 2
    }
    migrate
    ;;
  keys)
    exec node --conditions=agentic-rag-dist "$root/packages/agentic-rag/dist/cli/keys.js" "$@"
    ;;
  -h | --help | help)
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
    ;;
  *)
    exec "$role" "$@"
    ;;
esac
