"""The engine's command line.

    python -m tables.engine replay FILE.phh|FILE.phhs

prints one JSON object per hand, in file order: `{"hand": name, "finishing_stacks": [...]}`
(stacks in PHH player order) or `{"hand": name, "error": why}`. The name is the hand's TOML
table in a `.phhs` file, the file name for a `.phh`. Exits 1 if any hand was refused.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from tables.engine.phh import replay_text


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tables.engine")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay a .phh or .phhs file strictly")
    replay.add_argument("file")
    args = parser.parse_args(argv)
    try:
        with open(args.file, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(json.dumps({"hand": args.file, "error": f"cannot read the file: {exc}"}))
        return 1
    failed = False
    for result in replay_text(args.file, text):
        failed = failed or "error" in result
        print(json.dumps(result), flush=False)
    sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
