"""Make data/fonts/NotoSansCJKtc-Subset-Regular.otf, the CJK face every install has (dev time only).

Usage: .venv/bin/python scripts/subset_cjk_font.py [extra text files...]

The source is Debian's fonts-noto-cjk (Noto Sans CJK TC is face 3 of its collection); the bot
prefers that whole font when it is installed (scripts/setup.sh, the Dockerfile) and falls back to
this subset where it is not. The subset keeps Big5's symbols and its level-1 ideographs (the
5,401 frequent characters, a superset of the Ministry of Education's 4,808 common ones), CJK
punctuation, Bopomofo, full-width forms, and every character of the zh-TW catalogues and of any
extra text files given (e.g. the seed rulebooks): about 2.9 MB. Big5 level 2 (7,652 rarer
characters) would more than double it. Hinting is dropped (FreeType's auto-hinter is not used
for CJK at our sizes and Pillow renders unhinted outlines smoothly).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
TC_FACE = 3  # JP, KR, SC, TC, HK, then the Mono faces
TARGET = ROOT / "data" / "fonts" / "NotoSansCJKtc-Subset-Regular.otf"
# Big5 ranges: symbols, then level 1 (frequent) ideographs.
BIG5_RANGES = ((0xA140, 0xA3BF), (0xA440, 0xC67E))
BLOCKS = ((0x3000, 0x303F), (0x3100, 0x312F), (0xFF00, 0xFFEF))


def big5_chars() -> set[str]:
    chars = set()
    for lo, hi in BIG5_RANGES:
        for code in range(lo, hi + 1):
            try:
                chars.add(code.to_bytes(2, "big").decode("big5"))
            except UnicodeDecodeError:
                continue
    return chars


def catalogue_chars() -> set[str]:
    chars: set[str] = set()
    folder = ROOT / "data" / "i18n"
    for path in [folder / "zh-TW.json", *sorted((folder / "zh-TW").glob("*.json"))]:
        if path.exists():
            chars.update("".join(_strings(json.loads(path.read_text(encoding="utf-8")))))
    return chars


def _strings(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for value in node.values() for s in _strings(value)]
    if isinstance(node, list):
        return [s for value in node for s in _strings(value)]
    return []


def main(extra: list[str]) -> None:
    chars = big5_chars() | catalogue_chars()
    chars |= {chr(c) for lo, hi in BLOCKS for c in range(lo, hi + 1)}
    for name in extra:
        chars.update(Path(name).read_text(encoding="utf-8", errors="ignore"))
    # Only what DejaVu lacks matters, but the CJK face's own punctuation widths suit CJK text.
    chars = {c for c in chars if ord(c) >= 0x2E80 or c in "‧‥…—–‘’“”·"}
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".txt") as text:
        text.write("".join(sorted(chars)))
        text.flush()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "fontTools.subset",
                str(SOURCE),
                f"--font-number={TC_FACE}",
                f"--text-file={text.name}",
                f"--output-file={TARGET}",
                "--no-hinting",
                "--name-IDs=*",
                "--name-languages=*",
            ],
            check=True,
        )
    print(f"{TARGET.name}: {len(chars)} characters, {TARGET.stat().st_size:,} bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
