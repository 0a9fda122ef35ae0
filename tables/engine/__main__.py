"""The engine's command line.

    python -m tables.engine replay FILE.phh|FILE.phhs

prints one JSON object per hand, in file order: `{"hand": name, "finishing_stacks": [...]}`
(stacks in PHH player order) or `{"hand": name, "error": why}`. The name is the hand's TOML
table in a `.phhs` file, the file name for a `.phh`. Exits 1 if any hand was refused.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from tables.engine.phh import replay_text


def _file_argument(argv: Sequence[str] | None) -> str:
    """The file of `replay FILE`. The usual command line is read here; anything else (help,
    a mistake) goes to argparse, imported only then: it is 5 ms of a replay's start."""
    words = sys.argv[1:] if argv is None else list(argv)
    if len(words) == 2 and words[0] == "replay" and not words[1].startswith("-"):
        return words[1]
    import argparse  # noqa: PLC0415 - see the docstring

    parser = argparse.ArgumentParser(prog="python -m tables.engine")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay a .phh or .phhs file strictly")
    replay.add_argument("file")
    file: str = parser.parse_args(words).file
    return file


def main(argv: Sequence[str] | None = None) -> int:
    path = _file_argument(argv)
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(json.dumps({"hand": path, "error": f"cannot read the file: {exc}"}))
        return 1
    failed = False
    for result in replay_text(path, text):
        failed = failed or "error" in result
        print(json.dumps(result), flush=False)
    sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
