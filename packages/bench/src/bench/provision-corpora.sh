#!/bin/sh
# Installs the Debian documentation packages the real-text benchmark corpora are read from
# (bench:ingest / bench:search --corpus postgres-docs|python-docs|linux-docs|debian-docs).
# Run as root (or through sudo). Only the Debian archive is contacted.
#   postgresql-doc-15  HTML manual under /usr/share/doc/postgresql-doc-15/html
#   python3.11-doc     HTML docs under /usr/share/doc/python3.11/html
#   linux-doc-6.1      kernel Documentation/ (reStructuredText) under /usr/share/doc/linux-doc-6.1
set -eu

PACKAGES="postgresql-doc-15 python3.11-doc linux-doc-6.1"

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "provision-corpora: run as root (apt-get needs it): $0" >&2
    exit 1
  fi
fi

missing=""
for package in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $package"
  fi
done

if [ -z "$missing" ]; then
  echo "provision-corpora: already installed:$PACKAGES"
  exit 0
fi

echo "provision-corpora: installing$missing"
# A fresh container has no package lists; an update is cheap next to the downloads.
if ! $SUDO apt-get install -y --no-install-recommends $missing; then
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends $missing
fi
echo "provision-corpora: done"
