#!/usr/bin/env bash
# Runs editors/neovim/e2e.lua in a headless neovim; installs neovim (the
# Debian package) when it is missing. Usage: e2e.sh (variables as in e2e.lua).
set -euo pipefail
if ! command -v nvim >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim >/dev/null
  else
    echo "e2e.sh: neovim is missing and cannot be installed (need root and apt-get)" >&2
    exit 2
  fi
fi
here="$(cd "$(dirname "$0")" && pwd)"
# -u NONE: no user configuration; --headless: no UI; filetype detection on.
exec timeout 300 nvim --headless -u NONE -i NONE --cmd 'filetype on' -c "luafile $here/e2e.lua"
