#!/usr/bin/env bash
# Provision what CI needs: PostgreSQL (with pgvector + pg_trgm), Redis and a headless Chromium.
# Idempotent: a second run only probes the services and the test database.
set -euo pipefail

log() { echo "[provision] $*"; }
die() { echo "[provision] ERROR: $*" >&2; exit 1; }

# Daemonized servers return before accepting connections: poll "$@" for up to ~30 s.
wait_for() {
  local what=$1; shift
  for _ in $(seq 1 30); do "$@" >/dev/null 2>&1 && return 0; sleep 1; done
  die "$what not ready after 30 s"
}

export DEBIAN_FRONTEND=noninteractive
APT=(apt-get -q -o DPkg::Lock::Timeout=120)
# Installs those of the packages "$@" (after a label) that are not installed yet: naming an
# installed package would upgrade it (dpkg-dev drags dpkg along), which CI should not do as a side
# effect. The system lists are refreshed only when they cannot satisfy the install, and once more
# when the install fails on a list that went stale.
apt_install() {
  local what=$1; shift
  local missing=() package
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || missing+=("$package")
  done
  if [ ${#missing[@]} -eq 0 ]; then log "$what already installed"; return 0; fi
  if ! ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1 \
     || apt-cache policy "${missing[@]}" | grep -q 'Candidate: (none)'; then
    log "apt lists missing or stale: apt-get update"; "${APT[@]}" update
  fi
  log "installing $what: ${missing[*]}"
  "${APT[@]}" install -y --no-install-recommends "${missing[@]}" \
    || { log "install failed, retrying after apt-get update"; "${APT[@]}" update; \
         "${APT[@]}" install -y --no-install-recommends "${missing[@]}"; }
}

PGHOST=127.0.0.1 PGPORT=5432 TEST_DB=agentic_rag_test
# Explicit flags (not PG* exports) so a caller's PGHOST/PGDATABASE can't redirect us;
# client_min_messages hides the "already exists, skipping" notices on reruns.
psql_() { PGOPTIONS='-c client_min_messages=warning' psql -h "$PGHOST" -p "$PGPORT" -U postgres -X "$@"; }
# The server major comes from the cluster config dir: /usr/bin/pg_config is a
# postgresql-common wrapper that may point at libpq-dev, not at the server.
PGVER=$(ls /etc/postgresql | sort -V | tail -n1)
[ -n "$PGVER" ] || die "no PostgreSQL cluster under /etc/postgresql"
PG_CONFIG=/usr/lib/postgresql/$PGVER/bin/pg_config

# --- 1. PostgreSQL ---------------------------------------------------------
if pg_isready -h "$PGHOST" -p "$PGPORT" >/dev/null 2>&1; then
  log "postgresql $PGVER already accepting connections"
else
  log "starting postgresql $PGVER cluster 'main'"  # "already running" is tolerated: readiness counts
  pg_ctlcluster --skip-systemctl-redirect "$PGVER" main start || log "pg_ctlcluster returned $?, waiting anyway"
  wait_for postgresql pg_isready -h "$PGHOST" -p "$PGPORT"
  log "postgresql ready"
fi

# --- 2. Redis --------------------------------------------------------------
redis_ok() { [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = PONG ]; }
if redis_ok; then
  log "redis already answering PONG"
else
  log "starting redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
    --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_for redis redis_ok
  log "redis ready"
fi

# --- 3. pgvector (not packaged for PG 15 in bookworm: build trixie's source) ---
SHAREDIR=/usr/share/postgresql/$PGVER PKGLIBDIR=/usr/lib/postgresql/$PGVER/lib
if [ -x "$PG_CONFIG" ]; then SHAREDIR=$("$PG_CONFIG" --sharedir) PKGLIBDIR=$("$PG_CONFIG" --pkglibdir); fi
if [ -f "$SHAREDIR/extension/vector.control" ] && [ -f "$PKGLIBDIR/vector.so" ]; then
  log "pgvector already installed in $SHAREDIR/extension"
else
  # headers+PGXS, dpkg-source, toolchain
  apt_install "build deps" postgresql-server-dev-"$PGVER" dpkg-dev make gcc

  # Mirror URI (and keyring) come from the system's bookworm stanza so no host is
  # hard-coded; the security stanza is skipped because its Suites is bookworm-security.
  read -r MIRROR KEYRING < <(awk 'BEGIN{RS=""} {
      ok=0; uri=""; key=""; n=split($0, L, "\n")
      for (i=1; i<=n; i++) {
        if (L[i] ~ /^Suites:/ && (L[i] " ") ~ /[ \t]bookworm[ \t]/) ok=1
        if (L[i] ~ /^URIs:/) { split(substr(L[i], 6), u, " "); uri=u[1] }
        if (L[i] ~ /^Signed-By:[ \t]*\//) { key=L[i]; sub(/^Signed-By:[ \t]*/, "", key) }
      }
      if (ok && uri != "") { print uri, key; exit }
    }' /etc/apt/sources.list.d/debian.sources) || true
  [ -n "${MIRROR:-}" ] || die "no bookworm URIs: in /etc/apt/sources.list.d/debian.sources"

  TMP=$(mktemp -d /tmp/pgvector-build.XXXXXX)
  trap 'rm -rf "$TMP"' EXIT
  # apt downloads as the unprivileged _apt user; mktemp's 0700 root dir would
  # make it fall back to unsandboxed root downloads (with a warning).
  mkdir -p "$TMP/lists/partial" "$TMP/src"
  chmod 755 "$TMP"; chown _apt "$TMP/lists/partial" "$TMP/src" 2>/dev/null || true
  # Signed-By keeps full signature checking; bookworm's debian-archive-keyring
  # already ships the trixie keys.
  echo "deb-src ${KEYRING:+[signed-by=$KEYRING] }$MIRROR trixie main" > "$TMP/sources.list"
  # Private SourceList/SourceParts/Lists: the system's sources and lists stay untouched.
  TAPT=("${APT[@]}" -o Dir::Etc::SourceList="$TMP/sources.list"
        -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$TMP/lists")
  log "fetching trixie deb-src index from $MIRROR"
  "${TAPT[@]}" update
  log "downloading pgvector source"
  (cd "$TMP/src" && "${TAPT[@]}" source pgvector)
  SRC=$(find "$TMP/src" -mindepth 1 -maxdepth 1 -type d -name 'pgvector-*' | head -n1)
  [ -n "$SRC" ] || die "apt-get source pgvector produced no source dir"
  log "building $(basename "$SRC") against PostgreSQL $PGVER"
  # OPTFLAGS="" guarantees no upstream -march=native (Debian's no-native patch
  # does the same today), so the .so won't SIGILL if the image moves to another CPU.
  make -C "$SRC" -j"$(nproc)" PG_CONFIG="$PG_CONFIG" OPTFLAGS="" >/dev/null
  make -C "$SRC" install PG_CONFIG="$PG_CONFIG" OPTFLAGS="" >/dev/null
  rm -rf "$TMP"; trap - EXIT
  log "pgvector installed into $("$PG_CONFIG" --sharedir)/extension"  # untracked by dpkg
fi

# --- 4. Verify in a scratch database -----------------------------------------
if [ "$(psql_ -d postgres -Atc "SELECT 1 FROM pg_database WHERE datname='$TEST_DB'")" != 1 ]; then
  log "creating database $TEST_DB"; createdb -h "$PGHOST" -p "$PGPORT" -U postgres "$TEST_DB"
fi
psql_ -d "$TEST_DB" -q -v ON_ERROR_STOP=1 \
  -c "CREATE EXTENSION IF NOT EXISTS vector" -c "CREATE EXTENSION IF NOT EXISTS pg_trgm" \
  -c "SELECT '[1,2,3]'::vector <-> '[1,2,4]'::vector" >/dev/null
log "vector extension version: $(psql_ -d "$TEST_DB" -Atc "SELECT extversion FROM pg_extension WHERE extname='vector'")"
log "test database: postgres://postgres@$PGHOST:$PGPORT/$TEST_DB"

# --- 5. Chromium (the GraphQL explorer's browser test drives it headless) -----
# Debian's build, not Playwright's own download: CI reaches only npm and Debian.
CHROMIUM=/usr/bin/chromium
if [ -x "$CHROMIUM" ]; then
  log "chromium already installed: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
else
  apt_install chromium chromium
  [ -x "$CHROMIUM" ] || die "chromium installed but $CHROMIUM is missing"
  log "chromium installed: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
fi
# --- 6. groff (the PDF loader's real-world test typesets a manual page to PDF) --
# groff-base, on every Debian, has no PDF device; the full groff package adds gropdf.
apt_install groff groff
# Two real manuals from the Debian archive: the secret scanner and the injection quarantine must
# leave their placeholders and advice alone (packages/agentic-rag/src/ingest/secrets/manuals.int.test.ts).
apt_install manuals postgresql-doc-15 python3.11-doc
log "done"
