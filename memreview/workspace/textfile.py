"""Byte-faithful text files.

A memory file is decoded once and kept as a list of lines, each with the exact bytes it came
from and its own line ending, so that a file can be written back with every untouched byte
identical (docs/design.md §4.2). Only ``\\n`` and ``\\r\\n`` end a line: ``str.splitlines`` is never used
because it also splits on form feeds, ``\\x85``, ``\\u2028`` and friends.
"""

from __future__ import annotations

import codecs
import hashlib
from array import array
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from memreview.i18n import N_, Message, _

UTF8 = "utf-8"
UTF8_BOM = "utf-8-sig"
GB18030 = "gb18030"
UTF16 = "utf-16-le"
UTF16BE = "utf-16-be"
# Invalid UTF-8 that is not GB18030 either: decoded with surrogateescape so that every byte
# survives a round trip; such lines can be shown but a decision can't write new text there.
UTF8_LOSSY = "utf-8-lossy"


class EncodeError(ValueError):
    """A character the file's encoding cannot hold (never a silent change of encoding)."""


class _LineFields(NamedTuple):
    text: str
    ending: str
    stored: bytes | None  # the bytes, when they are not simply text + ending in UTF-8


class Line(_LineFields):
    """One line: its decoded text (no ending), its ending (``\\n``, ``\\r\\n`` or ``""``) and
    ``raw``, the exact bytes of text + ending in the file.

    A named tuple: immutable and about five times cheaper to build than a frozen dataclass,
    which counts at 200,000 lines. The bytes are kept only when they are not the UTF-8 of
    the text (a GB18030 or UTF-16 line): a UTF-8 file is not held twice, as text and as
    bytes. Always one form for the same line, so two lines are equal when their bytes are.
    """

    __slots__ = ()

    def __new__(cls, text: str, ending: str, raw: bytes | None = None) -> Line:
        if raw is not None:
            try:
                if raw == (text + ending).encode("utf-8", "surrogateescape"):
                    raw = None
            except UnicodeEncodeError:
                pass
        return tuple.__new__(cls, (text, ending, raw))

    @property
    def raw(self) -> bytes:
        stored = self.stored
        if stored is not None:
            return stored
        return (self.text + self.ending).encode("utf-8", "surrogateescape")


_new_line = tuple.__new__  # Line without the check, where the bytes are known to be UTF-8


@dataclass
class TextFile:
    """A decoded file that can re-encode itself byte for byte.

    Its bytes are not kept beside its lines: ``data`` renders them again from the lines
    (one copy of a 65 MB file is enough)."""

    rel: str
    bom: bytes  # the byte order mark the file starts with (b"" when none)
    encoding: str
    lines: list[Line]
    sha256: str
    warnings: list[tuple[int | None, Message]] = field(default_factory=list)  # (line, what)

    @property
    def data(self) -> bytes:
        """The file's bytes, as read."""
        return self.render(self.lines)

    # Pickled (the scan cache) as a few long strings instead of a tuple per line: reading
    # 200,000 lines back is then a handful of objects, and the lines are made again only
    # when something asks for them.
    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        lines = state.get("lines")
        if lines is None or any(ln.ending not in _END_CODES for ln in lines):
            return state
        del state["lines"]
        stored = any(ln.stored is not None for ln in lines)  # else every line is UTF-8
        state["_packed"] = (
            "\n".join(ln.text for ln in lines),
            "".join(_END_CODES[ln.ending] for ln in lines),
            b"".join(ln.raw for ln in lines) if stored else b"",
            array("Q", [len(ln.raw) for ln in lines]).tobytes() if stored else b"",
            len(lines),
        )
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __getattr__(self, name: str) -> Any:
        if name != "lines":
            raise AttributeError(name)
        packed = self.__dict__.get("_packed")
        if packed is None:  # another thread unpacked them meanwhile
            if "lines" in self.__dict__:
                return self.__dict__["lines"]
            raise AttributeError(name)
        self.lines = _unpack(packed)
        self.__dict__.pop("_packed", None)
        return self.lines

    @property
    def texts(self) -> list[str]:
        return [ln.text for ln in self.lines]

    @property
    def default_ending(self) -> str:
        """The ending new lines get: the file's most common one (LF when it has none)."""
        crlf = sum(1 for ln in self.lines if ln.ending == "\r\n")
        lf = sum(1 for ln in self.lines if ln.ending == "\n")
        return "\r\n" if crlf > lf else "\n"

    def encode_text(self, text: str) -> bytes:
        """Encode new text in this file's encoding, or raise EncodeError."""
        return encode_text(text, self.encoding)

    def render(self, lines: list[Line]) -> bytes:
        """The bytes of a file made of ``lines`` (with this file's BOM)."""
        return self.bom + b"".join(ln.raw for ln in lines)

    def make_line(self, text: str, ending: str | None = None) -> Line:
        """A new line in this file's encoding; ending defaults to the file's usual one."""
        end = self.default_ending if ending is None else ending
        return Line(text, end, self.encode_text(text + end))


_END_CODES = {"\n": "n", "\r\n": "r", "": "e"}
_END_OF_CODE = {v: k for k, v in _END_CODES.items()}


def _unpack(packed: tuple[Any, ...]) -> list[Line]:
    """The lines of a packed TextFile (see ``TextFile.__getstate__``)."""
    texts, ends, raws, lengths, n = packed
    if n == 0:
        return []
    if not lengths:  # every line is UTF-8: no bytes were kept
        return [
            _new_line(Line, (text, _END_OF_CODE[code], None))
            for text, code in zip(texts.split("\n"), ends, strict=True)
        ]
    sizes = array("Q")
    sizes.frombytes(lengths)
    out: list[Line] = []
    pos = 0
    for text, code, size in zip(texts.split("\n"), ends, sizes, strict=True):
        out.append(Line(text, _END_OF_CODE[code], raws[pos : pos + size]))
        pos += size
    return out


def encode_text(text: str, encoding: str) -> bytes:
    try:
        if encoding in (UTF8, UTF8_BOM):
            return text.encode("utf-8")
        if encoding == UTF8_LOSSY:
            return text.encode("utf-8", errors="strict")
        if encoding == GB18030:
            return text.encode("gb18030")
        if encoding in (UTF16, UTF16BE):
            return text.encode(encoding)
    except UnicodeEncodeError as exc:
        bad = text[exc.start : exc.end]
        raise EncodeError(
            _(
                "character {character!r} cannot be written in this file's encoding ({encoding})"
            ).format(character=bad, encoding=encoding)
        ) from None
    raise EncodeError(_("unknown encoding {encoding}").format(encoding=encoding))


def _split_bytes(body: bytes) -> list[tuple[bytes, bytes]]:
    """Split bytes into (content, ending) pairs on LF / CRLF only."""
    out: list[tuple[bytes, bytes]] = []
    start = 0
    n = len(body)
    find = body.find
    while start < n:
        i = find(b"\n", start)
        if i < 0:
            out.append((body[start:], b""))
            break
        if i > start and body[i - 1] == 0x0D:
            out.append((body[start : i - 1], b"\r\n"))
        else:
            out.append((body[start:i], b"\n"))
        start = i + 1
    return out


def _looks_binary(data: bytes) -> bool:
    return b"\x00" in data[:8192]


def decode_bytes(rel: str, data: bytes) -> TextFile:
    """Decode a file's bytes, detecting UTF-8 (BOM or not), UTF-16 with BOM and GB18030."""
    digest = hashlib.sha256(data).hexdigest()
    warnings: list[tuple[int | None, Message]] = []
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _decode_utf16(rel, data, digest)
    if data.startswith(codecs.BOM_UTF8):
        encoding, body = UTF8_BOM, data[3:]
    else:
        encoding, body = UTF8, data
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        encoding = _fallback_encoding(body)
        if encoding == UTF8_LOSSY:
            line_no = body.count(b"\n", 0, exc.start) + 1
            warnings.append(
                (line_no, Message(N_("invalid UTF-8 (not GBK either); shown with escapes")))
            )
    codec = "gb18030" if encoding == GB18030 else "utf-8"
    errors = "surrogateescape" if encoding == UTF8_LOSSY else "strict"
    bom = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
    return TextFile(rel, bom, encoding, _lines(body, codec, errors), digest, warnings)


def _lines(body: bytes, codec: str, errors: str) -> list[Line]:
    """The lines of ``body``, split on LF/CRLF only. Each line is decoded on its own, so a
    GB18030 byte pair or an escaped byte never straddles a line end."""
    raws = body.split(b"\n")
    last = raws.pop()  # after the last LF: the unterminated rest (often empty)
    lines: list[Line] = []
    append = lines.append
    if codec == "utf-8":  # the bytes are the text's UTF-8 (escapes included): not kept
        for raw in raws:
            if raw.endswith(b"\r"):
                append(_new_line(Line, (raw[:-1].decode(codec, errors), "\r\n", None)))
            else:
                append(_new_line(Line, (raw.decode(codec, errors), "\n", None)))
        if last:
            append(_new_line(Line, (last.decode(codec, errors), "", None)))
        return lines
    for raw in raws:
        if raw.endswith(b"\r"):
            append(Line(raw[:-1].decode(codec, errors), "\r\n", raw + b"\n"))
        else:
            append(Line(raw.decode(codec, errors), "\n", raw + b"\n"))
    if last:
        append(Line(last.decode(codec, errors), "", last))
    return lines


def _fallback_encoding(body: bytes) -> str:
    try:
        text = body.decode("gb18030")
    except UnicodeDecodeError:
        return UTF8_LOSSY
    # GB18030 decodes almost anything; require an exact round trip and mostly CJK text.
    if text.encode("gb18030") != body:
        return UTF8_LOSSY
    non_ascii = [c for c in text if ord(c) > 0x7F]
    if not non_ascii:
        return GB18030
    cjk = sum(1 for c in non_ascii if "\u3000" <= c <= "\u9fff" or "\uff00" <= c <= "\uffef")
    return GB18030 if cjk / len(non_ascii) >= 0.6 else UTF8_LOSSY


def _decode_utf16(rel: str, data: bytes, digest: str) -> TextFile:
    le = data.startswith(codecs.BOM_UTF16_LE)
    codec = "utf-16-le" if le else "utf-16-be"
    body = data[2:]
    warnings: list[tuple[int | None, Message]] = []
    try:
        text = body.decode(codec)
    except UnicodeDecodeError:
        # Keep every byte (BOM included) in lines that can be shown; "binary" can't be encoded,
        # so no decision can write to the file.
        warnings.append((None, Message(N_("invalid UTF-16; the file is read-only for memreview"))))
        raw_lines = [
            Line(
                content.decode("utf-8", "surrogateescape"), ending.decode("ascii"), content + ending
            )
            for content, ending in _split_bytes(data)
        ]
        return TextFile(rel, b"", "binary", raw_lines, digest, warnings)
    lines: list[Line] = []
    start = 0
    while start < len(text):
        i = text.find("\n", start)
        if i < 0:
            content, ending = text[start:], ""
            start = len(text)
        else:
            if i > start and text[i - 1] == "\r":
                content, ending = text[start : i - 1], "\r\n"
            else:
                content, ending = text[start:i], "\n"
            start = i + 1
        lines.append(Line(content, ending, (content + ending).encode(codec)))
    return TextFile(rel, data[:2], UTF16 if le else UTF16BE, lines, digest, warnings)


def is_binary(data: bytes) -> bool:
    """True for data that is not text (NUL bytes outside a UTF-16 file)."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return False
    return _looks_binary(data)


def decode_whole(data: bytes) -> str:
    """The text of a file that is only read (never written back), decoded in one step."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", errors="replace")
    if data.startswith(codecs.BOM_UTF8):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if _fallback_encoding(data) == GB18030:
        return data.decode("gb18030")
    return data.decode("utf-8", errors="surrogateescape")
