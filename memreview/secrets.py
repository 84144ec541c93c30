"""Credentials in memory text: find them, and mask them wherever text leaves memreview.

An agent that writes an API key into a memory file puts it into every session's context, every
backup and every report. This module finds such values in a piece of text and masks them
(``sk-…f3Qa``): the secrets queue lists them, and every other place that shows or stores memory
text (evidence, diffs, ``scan --json``, the report, the journal) passes the text through
:func:`mask_secrets` first, so the whole value never leaves the file it is in.

What counts, from strongest to weakest evidence:
- provider tokens, by the patterns of Yelp's ``detect-secrets`` plugins (AWS, GitHub, GitLab,
  Slack, Stripe, SendGrid, npm, PyPI, Discord, Telegram, Twilio, JWT, Azure, Mailchimp, …),
  plus the current formats that it lacks (``sk-proj-``/``sk-ant-`` keys, Google ``AIza``,
  Hugging Face ``hf_``, GitHub fine-grained ``github_pat_``);
- private keys: PEM blocks (``detect-secrets``' list of headers) and 64-hex keys next to a
  word that says "private key" or "wallet";
- seed phrases: 12–24 BIP-39 words in a row whose checksum holds, or that follow a word such
  as "seed", "mnemonic" or ``助记词``;
- a value after ``password:``/``密码：``/``token=``/``api_key:`` and their kin, unless it is a
  placeholder (``<…>``, ``${VAR}``, ``****``, "see 1Password", ``[redacted …]``);
- a high-entropy string (``detect-secrets``' Base64/hex entropy) in a ``*_KEY=``/``*_TOKEN=``
  assignment.

Not secrets: a wallet *address* (``0x`` + 40 hex), a key's name without a value
(``OPENAI_API_KEY``), a UUID or a commit/content hash on its own.

Finding is cheap where there is nothing to find: a line is looked at only when it holds a run
of 16 or more token characters, a ``-----BEGIN`` header, a credential word or eleven or more
lower-case words in a row.
"""

from __future__ import annotations

import math
import re
import types
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import accumulate

from memreview.i18n import N_, _
from memreview.secret_values import (
    ACCOUNT_PAIR,
    ASSIGN,
    CELL,
    ELIDED,
    LABELLED,
    LABELLED_ZH,
    SPACED,
    is_placeholder,
    labelled_value,
    looks_made,
)

__all__ = ["Secret", "find_secrets", "mask_value", "mask_secrets", "redact_secrets"]


@dataclass(frozen=True)
class Secret:
    """One credential value inside a text: its kind and the span ``text[start:end]``."""

    kind: str
    start: int
    end: int
    value: str

    @property
    def masked(self) -> str:
        return mask_value(self.value, self.kind)


# --- provider tokens --------------------------------------------------------------------------

# detect-secrets' regex plugins that are precise enough for prose. Left out: the public-IP
# plugin (an address is no credential), and the keyword-context ones (Artifactory, Cloudant,
# IBM, SoftLayer) whose short patterns fire on ordinary upper-case words.
_PLUGINS = (
    "AWSKeyDetector",
    "AzureStorageKeyDetector",
    "BasicAuthDetector",
    "DiscordBotTokenDetector",
    "GitHubTokenDetector",
    "GitLabTokenDetector",
    "JwtTokenDetector",
    "MailchimpDetector",
    "NpmDetector",
    "OpenAIDetector",
    "PypiTokenDetector",
    "SendGridDetector",
    "SlackDetector",
    "SquareOAuthDetector",
    "StripeDetector",
    "TelegramBotTokenDetector",
    "TwilioKeyDetector",
)

# Current formats detect-secrets 1.5 does not know.
_EXTRA_PROVIDERS = (
    (N_("API key"), r"\bsk-(?:proj-|ant-(?:api\d\d-)?|or-v1-|svcacct-)?[A-Za-z0-9_\-]{32,}"),
    (N_("Google API key"), r"\bAIza[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])"),
    (N_("Hugging Face token"), r"\bhf_[A-Za-z0-9]{30,}\b"),
    (N_("GitHub token"), r"\bgithub_pat_[A-Za-z0-9_]{40,}\b"),
)


@cache
def _provider_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """(kind, regex) for every provider pattern; detect-secrets is imported on first use."""
    wanted = set(_PLUGINS)
    out: list[tuple[str, re.Pattern[str]]] = []
    for kind, cls in _plugin_table().items():
        if cls.__name__ in wanted:
            out.extend((kind, rx) for rx in cls().denylist)
    out.extend((kind, re.compile(rx)) for kind, rx in _EXTRA_PROVIDERS)
    return tuple(out)


def _plugin_table() -> dict:
    """detect-secrets' plugin classes by secret type, imported without ``requests``
    when no one has loaded it: the plugins import it (86 of the 118 ms their import takes)
    only to verify a key over the network, which memreview never asks of them. Only their
    patterns are read here (see ``_NoNetwork``); anything else their import touches of it
    makes the import start again with the real module."""
    import sys

    if "requests" not in sys.modules:
        sys.modules["requests"] = _NoNetwork("requests")
        try:
            from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

            return dict(get_mapping_from_secret_type_to_class())  # the plugins imported now
        except Exception:  # a version that needs more of it at import: the real module
            for name in [n for n in sys.modules if n.split(".")[0] == "detect_secrets"]:
                del sys.modules[name]
        finally:
            if isinstance(sys.modules.get("requests"), _NoNetwork):
                del sys.modules["requests"]  # whoever imports it next gets the real one
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    return dict(get_mapping_from_secret_type_to_class())


class _NoNetwork(types.ModuleType):
    """What detect-secrets' plugins see of ``requests`` when memreview imports them: the
    names their modules read as they are defined (an annotation's ``Response``, the
    exception their key checks catch), and an error for anything else: no request can be
    made through it."""

    class Response:
        pass

    class exceptions:  # noqa: N801 (the module's name in requests)
        class RequestException(Exception):
            pass

    def __getattr__(self, name: str):
        raise AttributeError(name)  # (what a module lacking it raises)


_PEM = re.compile(
    r"-----BEGIN ((?:RSA |DSA |EC |OPENSSH |ENCRYPTED |PGP |SSH2 ENCRYPTED )?PRIVATE KEY(?: BLOCK)?)-----"
    r"(?P<body>.*?)(?:-----END [A-Z0-9 ]*-----|\Z)",
    re.S,
)
_HEX64 = re.compile(r"(?<![0-9A-Za-z])(?:0x)?([0-9a-fA-F]{64})(?![0-9A-Za-z])")
_VALUE_IN_GROUP = ("Basic Auth Credentials", "NPM tokens")
_PRIVATE_WORDS = re.compile(r"(?i)private[\s_-]*key|priv[_-]?key|wallet|secret[\s_-]*key|私钥|钱包")

# --- seed phrases -------------------------------------------------------------------------------

# words, and anything else that is not a separator or numbering (which breaks a run)
_SEED_TOKENS = re.compile(r"[A-Za-z]+|[^\sA-Za-z0-9.,;:/|()\-]+")
_SEED_WORDS = re.compile(r"(?i)seed|mnemonic|recovery\s+phrase|助记词|种子")

# --- the cheap gates ---------------------------------------------------------------------------

# Every token pattern above holds a run of 16 letters and digits (or a literal header); labelled
# values need one of these words; a seed phrase needs twelve words.
_TOKEN_GATE = re.compile(r"[A-Za-z0-9]{16}|-----BEGIN|PuTTY-User|://[^\s/@]+:[^\s/@]+@")
LABEL_GATE = re.compile(r"pass|pwd|secret|token|key|bearer|private")  # on lower-cased text
LABEL_GATE_ZH = re.compile(r"密码|口令|密钥|令牌|私钥|秘钥")


# The same gates over a whole file at once (the queue looks only at the lines they hit): a
# seed phrase needs twelve words in a row.
# seed phrase: a line that is nothing but 12–24 lower-case words (numbering allowed), or a
# line naming a seed; tried at line starts only, so it costs little.
_SEED_LINE = re.compile(
    r"^[\s*>|\-]*(?:\d{1,2}[.)]\s*)?(?:[a-z]{3,8}[\s,.;]+(?:\d{1,2}[.)]\s*)?){11,23}"
    r"[a-z]{3,8}[\s.]*$",
    re.M,
)
# Each gate over a whole file's text (the queue then looks only at the lines they hit); the
# lower-case ones run on the lower-cased text. One pattern each: an alternation of them all
# is several times slower.
# (the token gate in three parts: its alternation costs more than the three searches)
# (an alternation of plain words costs more than a search for each: those are split)
TOKEN_GATES = (
    re.compile(r"[A-Za-z0-9]{16}"),
    re.compile("-----BEGIN"),
    re.compile("PuTTY-User"),
    re.compile(r"://[^\s/@]+:[^\s/@]+@"),
)
WHOLE_TEXT_GATES = (
    *TOKEN_GATES,
    LABEL_GATE_ZH,
    re.compile("助记词"),
    re.compile("种子"),
    _SEED_LINE,
)
# an account and its password side by side (``admin / …``, ``name@mail.example / …``)
# (lower-cased; one literal-led pattern each: an alternation of them scans several times slower)
ACCOUNT_GATES = tuple(
    re.compile(p) for p in (r"admin ?/", r"root ?/", r"ubuntu ?/", r"@[\w-]+\.[\w.-]+ ?/")
)
LOWER_GATES = (
    LABEL_GATE,
    *(re.compile(w) for w in ("seed", "mnemonic", "recovery phrase")),
    *ACCOUNT_GATES,
)


def _needed_text(rx: re.Pattern[str]) -> str:
    """A text every match of ``rx`` holds: the plain characters its pattern opens with
    (``admin ?/`` → ``admin``; the space before ``?`` may be missing); "" for a pattern
    with an alternation, a flag that changes what a character matches, or no such start."""
    if "|" in rx.pattern or rx.flags & re.IGNORECASE:
        return ""
    out: list[str] = []
    for ch in rx.pattern:
        if ch in ".^$*+?{}[]\\|()":
            if ch in "?*{" and out:
                out.pop()  # the character before may be missing
            break
        out.append(ch)
    return "".join(out)


# the text each gate needs, for those that need one (see _may_hit)
_NEEDS = {
    rx.pattern: needs for rx in (*WHOLE_TEXT_GATES, *LOWER_GATES) if (needs := _needed_text(rx))
}
_RUN_GATE = TOKEN_GATES[0]


def _entropy(s: str) -> float:
    counts: dict[str, int] = {}
    for ch in s:
        counts[ch] = counts.get(ch, 0) + 1
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


@cache
def _bip39():
    from mnemonic import Mnemonic

    m = Mnemonic("english")
    return m, frozenset(m.wordlist)


def _seed_phrases(text: str) -> list[Secret]:
    """Runs of 12–24 BIP-39 words (numbering and separators between them allowed)."""
    m, words = _bip39()
    out: list[Secret] = []
    run: list[re.Match[str]] = []
    for tok in [*_SEED_TOKENS.finditer(text), None]:
        if tok is not None and tok.group(0) in words:
            run.append(tok)
            continue
        if len(run) >= 12:
            found = _seed_in_run(text, run, m)
            if found:
                out.append(found)
        run = []
    return out


def _seed_in_run(text: str, run: list[re.Match[str]], m) -> Secret | None:
    n = max(k for k in (12, 15, 18, 21, 24) if k <= len(run))
    for i in range(len(run) - n + 1):
        if m.check(" ".join(w.group(0) for w in run[i : i + n])):
            chosen = run[i : i + n]
            break
    else:
        if not _SEED_WORDS.search(text[max(0, run[0].start() - 40) : run[0].start()]):
            return None
        chosen = run[:n]
    start, end = chosen[0].start(), chosen[-1].end()
    return Secret(N_("seed phrase"), start, end, text[start:end])


def find_secrets(text: str) -> list[Secret]:  # noqa: C901
    """Every credential value in ``text``, in order, overlapping finds merged (the first kind
    found for a span wins: provider, private key, seed phrase, labelled value, assignment)."""
    found: list[Secret] = []
    if _TOKEN_GATE.search(text):
        for m in _PEM.finditer(text):
            found.append(Secret(N_("private key"), m.start(), m.end(), m.group(0)))
        for kind, rx in _provider_patterns():
            for m in rx.finditer(text):
                # a pattern with a group marks the value inside its context (basic auth, npm)
                g = 1 if kind in _VALUE_IN_GROUP and rx.groups and m.group(1) else 0
                value = m.group(g)
                if kind == "Basic Auth Credentials" and is_placeholder(value):
                    continue
                found.append(Secret(kind, m.start(g), m.end(g), value))
        if _PRIVATE_WORDS.search(text):
            for m in _HEX64.finditer(text):
                found.append(Secret(N_("private key"), m.start(1), m.end(1), m.group(1)))
    if text.count(" ") >= 11:
        found.extend(_seed_phrases(text))
    low = text.lower()
    if LABEL_GATE.search(low) or LABEL_GATE_ZH.search(text):
        kind = N_("password or token")
        for rx in (LABELLED, LABELLED_ZH, CELL):
            for m in rx.finditer(text):
                raw = m.group("value")
                value = raw.rstrip(".:;)）")
                if ELIDED.search(raw):
                    continue
                label = re.sub(r"[\s_-]+", "", m.group("label").lower())
                quoted = bool(m.group("q"))
                if rx is LABELLED and m.group("sep").startswith("is"):
                    quoted = False  # "the token is valid": prose unless the value looks made
                    label = "token"
                if labelled_value(label, value, quoted):
                    start = m.start("value")
                    found.append(Secret(kind, start, start + len(value), value))
    if LABEL_GATE.search(low):
        for m in SPACED.finditer(text):
            raw = m.group("value")
            value = raw.rstrip(".:;)）")
            if not ELIDED.search(raw) and not is_placeholder(value) and looks_made(value):
                start = m.start("value")
                found.append(Secret(N_("password or token"), start, start + len(value), value))
        for m in ASSIGN.finditer(text):
            value = m.group("value")
            if is_placeholder(value) or _entropy(value) < 3.0:
                continue
            kind = N_("key in an assignment")
            found.append(Secret(kind, m.start("value"), m.end("value"), value))
    if any(rx.search(low) for rx in ACCOUNT_GATES):
        for m in ACCOUNT_PAIR.finditer(text):
            value = m.group("value").rstrip(".:;)）")
            if ELIDED.search(m.group("value")):
                continue
            if not is_placeholder(value) and looks_made(value) and not value.isdigit():
                start = m.start("value")
                found.append(Secret(N_("password or token"), start, start + len(value), value))
    if not found:
        return found
    found.sort(key=lambda s: (s.start, -(s.end - s.start)))
    merged: list[Secret] = []
    for s in found:
        if merged and s.start < merged[-1].end:
            continue
        merged.append(s)
    return merged


_KNOWN_PREFIX = re.compile(
    r"^(?:sk-(?:proj-|ant-(?:api\d\d-)?|or-v1-)?|gh[pousr]_|github_pat_|glpat-|xox[a-z]-|AKIA|ASIA"
    r"|AIza|hf_|SG\.|npm_|pypi-|[rs]k_live_|eyJ)"
)


def kinds_shown(kinds: Iterable[str]) -> str:
    """Kinds of credential in the interface's language, joined (JSON, decisions and the
    ``[redacted <kind> …]`` marks keep the English names; a provider's name, such as ``AWS
    Access Key``, stays as it is)."""
    return _(", ").join(_(kind) for kind in kinds)


def mask_value(value: str, kind: str = "") -> str:
    """``sk-…f3Qa``: a known prefix (or the first two characters) and the last four, never more
    than a quarter of the value; short values keep nothing but their length class."""
    if kind == "private key" and value.startswith("-----BEGIN"):
        head = value.split("-----", 2)[1] if value.count("-----") >= 2 else "PRIVATE KEY"
        return f"-----{head}-----…"
    if kind == "seed phrase":
        words = value.split()
        return f"{words[0]} … ({len(words)} words)"
    n = len(value)
    if n < 16:
        return "…" if n < 8 else "…" + value[-2:]
    m = _KNOWN_PREFIX.match(value)
    prefix = m.group(0) if m else ""
    tail = value[-4:]
    # what is shown beyond a provider's public prefix stays within a third of the value
    extra = value[len(prefix) : len(prefix) + 2] if not prefix else ""
    head = prefix + extra
    if len(extra) + len(tail) > n // 3:
        head = prefix
    return f"{head}…{tail}"


def mask_secrets(text: str) -> str:
    """``text`` with every credential value replaced by its mask."""
    found = find_secrets(text)
    if not found:
        return text
    parts: list[str] = []
    pos = 0
    for s in found:
        parts.append(text[pos : s.start])
        parts.append(s.masked)
        pos = s.end
    parts.append(text[pos:])
    return "".join(parts)


def redact_secrets(text: str, day: str, note: str | None = None) -> str:
    """``text`` with every credential value replaced by ``[redacted <kind> <day>]`` (and
    ``: <note>`` — where the secret lives now — when the owner gave one)."""
    found = find_secrets(text)
    tail = f": {note.strip()}" if note and note.strip() else ""
    parts: list[str] = []
    pos = 0
    for s in found:
        parts.append(text[pos : s.start])
        parts.append(f"[redacted {s.kind} {day}{tail}]")
        pos = s.end
    parts.append(text[pos:])
    return "".join(parts)


def candidate_lines(texts: list[str]) -> list[int]:
    """The 0-based lines that pass one of the finder's gates, found with one regex pass over
    the whole file (most files have none)."""
    whole = "\n".join(texts)
    hits = gate_hits(whole)
    if not hits:
        return []
    starts = [0, *accumulate(len(t) + 1 for t in texts)]
    return sorted({bisect_right(starts, pos) - 1 for pos in hits})


def gate_hits(whole: str, low: str | None = None) -> set[int]:
    """Where in ``whole`` one of the finder's gates hits (``low``: ``whole`` lower-cased,
    when the caller has it)."""
    hits = {m.start() for rx in WHOLE_TEXT_GATES if _may_hit(rx, whole) for m in rx.finditer(whole)}
    if low is None or len(low) != len(whole):
        low = whole.lower()
    if len(low) != len(whole):  # a character that lower-cases to two: each line on its own
        return {m.start() for m in re.finditer(r"^", whole, re.M)}
    hits.update(m.start() for rx in LOWER_GATES if _may_hit(rx, low) for m in rx.finditer(low))
    return hits


# Most texts hold none of the texts the gates' matches need and no run of sixteen letters and
# digits: each is ruled out by a search faster than the regex's (a text by ``in``; the run by
# the text's bytes with every ASCII letter and digit made one byte: UTF-8 writes any other
# character as bytes none of them is). Where a gate may hit, its regex finds where.
_ALNUM_BYTES = bytes(int(chr(b).isascii() and chr(b).isalnum()) for b in range(256))
_ALNUM_RUN = bytes([1]) * 16


def _may_hit(rx: re.Pattern[str], text: str) -> bool:
    """False when gate ``rx`` surely finds nothing in ``text``."""
    needs = _NEEDS.get(rx.pattern)
    if needs is not None:
        return needs in text
    if rx is _RUN_GATE:
        return _ALNUM_RUN in text.encode("utf-8", "surrogatepass").translate(_ALNUM_BYTES)
    return True


def holds_secret(texts: Iterable[str]) -> bool:
    """Whether any of ``texts`` holds a credential, or the first line of a private key block
    (the gated search of :func:`candidate_lines` over all of them at once)."""
    lines = [line for text in texts if text for line in text.split("\n")]
    for i in candidate_lines(lines):
        line = lines[i]
        if ("-----BEGIN" in line and "PRIVATE KEY" in line) or find_secrets(line):
            return True
    return False
