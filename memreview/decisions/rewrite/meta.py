"""The metadata edits of a rewrite: an anchor's ``Key: value`` lines (``SetMeta``) and its
lists of references (``AddRef``, ``RemoveRef``, ``MoveRefs``), each separator taken out with
the reference it followed. ``MetaEdit`` is one of the bases of ``ops.LineEdit``."""

from __future__ import annotations

import re

from memreview.decisions.plan import AddRef, MoveRefs, RemoveRef, SetMeta
from memreview.decisions.rewrite.lines import Imports, LineFile, Region, matched
from memreview.workspace.markdown import META_RE, REF_RE

_SEP_AFTER = re.compile(r"[ \t]*[,，、;；][ \t]*")
_SEP_BEFORE = re.compile(r"[ \t]*[,，、;；][ \t]*$")


class MetaEdit(LineFile):
    """A ``LineFile`` that edits the metadata lines of anchors."""

    def _meta_lines(self, r: Region, name: str) -> list[int]:
        low = name.lower()
        out = []
        for i in range(1, r.meta_last + 1):
            m = META_RE.match(r.block[i].text)
            if m and m.group(1).lower() == low:
                out.append(i)
        return out

    def _add_meta(self, r: Region, text: str) -> None:
        r.block.insert(r.meta_last + 1, self.line(text))
        r.meta_last += 1

    def _SetMeta(self, op: SetMeta, _imports: Imports) -> None:
        r = self._anchor(op)
        found = self._meta_lines(r, op.name)
        if not found:
            self._add_meta(r, f"{op.name}: {op.value}")
            return
        i = found[0]
        old = r.block[i]
        written = matched(META_RE, old.text).group(1)
        text = f"{written}: {op.value}"
        if text != old.text:
            r.block[i] = self.line(text, old.ending)

    def _AddRef(self, op: AddRef, _imports: Imports) -> None:
        r = self._anchor(op)
        token = f"[[{op.ref}]]"
        found = self._meta_lines(r, op.name)
        if any(token in r.block[i].text for i in found):
            return
        if not found:
            self._add_meta(r, f"{op.name}: {token}")
            return
        i = found[0]
        old = r.block[i]
        value = matched(META_RE, old.text).group(2).strip()
        text = old.text.rstrip() + (f", {token}" if value else f" {token}")
        r.block[i] = self.line(text, old.ending)

    def _RemoveRef(self, op: RemoveRef, _imports: Imports) -> None:
        r = self._anchor(op)
        token = f"[[{op.ref}]]"
        for i in reversed(self._meta_lines(r, op.name)):
            old = r.block[i]
            if token not in old.text:
                continue
            text = _drop_ref(old.text, token)
            value = text.split(":", 1)[1] if ":" in text else ""
            if REF_RE.search(value):
                r.block[i] = self.line(text, old.ending)
            else:
                del r.block[i]
                r.meta_last -= 1

    def _MoveRefs(self, op: MoveRefs, _imports: Imports) -> None:
        r = self._anchor(op)
        for i in reversed(self._meta_lines(r, op.source)):
            old = r.block[i]
            text = _drop_refs(old.text, op.refs)
            if text == old.text:
                continue
            if REF_RE.search(text.split(":", 1)[1] if ":" in text else ""):
                r.block[i] = self.line(text, old.ending)
            else:
                del r.block[i]
                r.meta_last -= 1
        found = self._meta_lines(r, op.dest)
        have = set(REF_RE.findall(" ".join(r.block[i].text for i in found)))
        tokens = ", ".join(f"[[{ref}]]" for ref in sorted(op.refs | op.extra) if ref not in have)
        if not tokens:
            return
        if not found:
            self._add_meta(r, f"{op.dest}: {tokens}")
            return
        old = r.block[found[0]]
        value = matched(META_RE, old.text).group(2).strip()
        text = old.text.rstrip() + (f", {tokens}" if value else f" {tokens}")
        r.block[found[0]] = self.line(text, old.ending)


def _drop_ref(text: str, token: str) -> str:
    """``text`` without ``token`` and one separator next to it."""
    colon = text.find(":")
    i = text.find(token, colon + 1)
    j = i + len(token)
    after = _SEP_AFTER.match(text, j)
    if after:
        return text[:i] + text[after.end() :]
    before = _SEP_BEFORE.search(text[:i])
    if before:
        return text[: before.start()] + text[j:]
    spaces = re.match(r"[ \t]+", text[j:])
    if spaces and REF_RE.search(text, j):  # references separated by spaces only
        return text[:i] + text[j + spaces.end() :]
    if not text[j:].strip():
        return text[:i].rstrip(" \t") + text[j:]
    return text[:i] + text[j:]


def _drop_refs(text: str, refs: frozenset[str]) -> str:
    """``text`` (a ``Key: [[a]], [[b]]`` line) without the references in ``refs``, each with
    the separator after it (the one before it when it ends the list), in one pass however
    many there are."""
    colon = text.find(":")
    parts = re.split(r"(\[\[[^\[\]\s]+\]\])", text[colon + 1 :])  # text, ref, text, …
    kept: list[str] = [parts[0]]
    for k in range(1, len(parts), 2):
        token, after = parts[k], parts[k + 1]
        if token[2:-2] not in refs:
            kept += [token, after]
            continue
        sep = _SEP_AFTER.match(after)
        if sep:
            kept.append(after[sep.end() :])
        else:
            kept[-1] = _SEP_BEFORE.sub("", kept[-1])
            kept.append(after)
    value = "".join(kept)
    if not REF_RE.search(value):
        value = value.rstrip(" \t")
    return text[: colon + 1] + value
