# Sourced by scripts/start and scripts/test: make .venv with Python 3.11+ and install the project.
# Usage: . scripts/setup.sh [extra]   (extra = "test" installs the test tools too)
set -euo pipefail
extra="${1:-}"
pick_python() {
  for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
      echo "$candidate"; return 0
    fi
  done
  echo "Meeple Post needs Python 3.11 or newer (python3.11 was not found)." >&2
  return 1
}
if [ ! -x .venv/bin/python ]; then
  "$(pick_python)" -m venv .venv
fi
stamp=".venv/.installed-${extra:-base}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "Installing Meeple Post and its dependencies into .venv (first run only)..." >&2
  target="."
  [ -n "$extra" ] && target=".[${extra}]"
  if ! { .venv/bin/python -m pip install --upgrade pip && .venv/bin/python -m pip install -e "$target"; } \
      > .venv/install.log 2>&1; then
    tail -n 30 .venv/install.log >&2
    echo "Installation failed; the whole log is in .venv/install.log" >&2
    exit 1
  fi
  touch "$stamp"
fi
