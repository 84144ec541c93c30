"""Secrets: memory lines that hold a credential (DESIGN §2; the finding rules are in
``memreview.secrets``).

One item per memory-file line holding one or more credential values (a PEM block is one item
spanning its lines). Items carry only masked text: the value itself never enters an item, its
id, the JSON or the screen. The id is derived from the file and the *masked* line, so it stays
stable when lines move and says nothing about the secret.
"""

from __future__ import annotations

from datetime import date

from memreview.i18n import _
from memreview.queues.common import item_id, short
from memreview.secrets import Secret, candidate_lines, find_secrets, kinds_shown, mask_secrets
from memreview.workspace.memo import per_file
from memreview.workspace.model import MemoryFile, Workspace

_PEM_BEGIN = "-----BEGIN"


@per_file  # a rescan reuses it for the files a write left alone
def line_secrets(mf: MemoryFile) -> list[tuple[int, int, list[Secret], str]]:
    """(first line, last line, secrets, text) for every line or PEM block of a file holding
    credentials; ``text`` is the line (or the block's lines joined with ``\\n``) as written."""
    texts = mf.source.texts
    out: list[tuple[int, int, list[Secret], str]] = []
    for i in candidate_lines(texts):
        text = texts[i]
        end = i
        if _PEM_BEGIN in text and "PRIVATE KEY" in text:
            # a key block runs to its END line (or 60 lines, whichever comes first)
            while end + 1 < len(texts) and end - i < 60 and "-----END" not in texts[end]:
                end += 1
            text = "\n".join(texts[i : end + 1])
        found = find_secrets(text)
        if found and not (out and out[-1][1] >= i + 1):
            out.append((i + 1, end + 1, found, text))
    return out


def secrets(ws: Workspace, today: date) -> list[dict]:
    """One item per line (or key block) of a memory file that holds a credential, masked."""
    items: list[dict] = []
    seen: dict[str, int] = {}
    for files in (ws.files, ws.archive_files):
        for rel, mf in files.items():
            for first, last, found, text in line_secrets(mf):
                masked = mask_secrets(text)
                kinds = sorted({s.kind for s in found})
                first_line = masked.split("\n", 1)[0]
                # two lines with the same mask in one file: told apart by their order
                base = item_id("s", rel, masked)
                n = seen[base] = seen.get(base, 0) + 1
                items.append(
                    {
                        "id": base if n == 1 else f"{base}-{n}",
                        "title": short(
                            _("{kinds} in {file}:{line}").format(
                                kinds=kinds_shown(kinds), file=rel, line=first
                            )
                        ),
                        "kinds": kinds,
                        "ref": {
                            "file": rel,
                            "line": first,
                            "end_line": last,
                            "text": first_line,
                            "anchor": None,
                        },
                        "masked": [s.masked for s in found],
                        "text": masked,
                    }
                )
    return items
