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
# The exact versions that were tested, with their hashes (requirements/*.txt, written by
# ./scripts/lock from pyproject.toml's ranges): the bot's own, or with the test tools. Installed at
# every run: when .venv already has them this takes about a second and asks no index, and a
# package upgraded by hand in .venv is put back to the tested version.
lock="requirements/${extra:-bot}.txt"
[ -f "$lock" ] || { echo "No lock $lock: run ./scripts/lock" >&2; return 1; }
stamp=".venv/.installed-${extra:-base}"
first=""
[ -f "$stamp" ] || first=" (first run only)"
[ -n "$first" ] && echo "Installing Meeple Post and its dependencies into .venv${first}..." >&2
if ! .venv/bin/python -m pip install --disable-pip-version-check --require-hashes -r "$lock" \
    > .venv/install.log 2>&1; then
  tail -n 30 .venv/install.log >&2
  echo "Installation failed; the whole log is in .venv/install.log" >&2
  return 1
fi
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ "$lock" -nt "$stamp" ]; then
  # The project itself, editable, with the locked setuptools (no build isolation: nothing unlocked).
  if ! .venv/bin/python -m pip install --disable-pip-version-check --no-deps --no-build-isolation -e . \
      >> .venv/install.log 2>&1; then
    tail -n 30 .venv/install.log >&2
    echo "Installation failed; the whole log is in .venv/install.log" >&2
    return 1
  fi
  touch "$stamp"
fi
# The images draw CJK names and words with Noto Sans CJK and emoji in colour with Noto Color Emoji
# (render/fonts.py): Debian's packages, installed once when missing (quiet, non-interactive). Without
# them the images still draw, with the CJK subset in data/fonts (regular weight) and no emoji.
fonts_stamp=".venv/.fonts-tried"
if { [ ! -f /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc ] ||
     [ ! -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]; } &&
   [ ! -f "$fonts_stamp" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing the Noto CJK and Noto Color Emoji fonts from Debian's packages (first run only)..." >&2
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo -n"
  apt="$sudo apt-get -o DPkg::Lock::Timeout=300"  # waits for another apt (an unattended upgrade)
  if ! { $apt update -qq && DEBIAN_FRONTEND=noninteractive $apt install -y -qq \
      --no-install-recommends fonts-noto-cjk fonts-noto-color-emoji; } > .venv/fonts-install.log 2>&1; then
    tail -n 5 .venv/fonts-install.log >&2
    echo "The fonts could not be installed (log: .venv/fonts-install.log): images use the fonts in data/fonts." >&2
  fi
  touch "$fonts_stamp"
fi
