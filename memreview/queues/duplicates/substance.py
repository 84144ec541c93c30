"""The same fact as shared substance with nothing in disagreement (docs/design.md §2).

*Substance* is what carries a fact: numbers with their units, dates, times, versions, paths,
URLs, e-mails, code spans, identifiers, proper names and content words; CJK text by character
pairs. Labels' emphasis, list markers, table pipes and cell order, punctuation and function
words are dress and give no token. Each token weighs by its rarity among the compared
entries (``Weights``: inverse document frequency), so a label repeated across records weighs
almost nothing and a rare path or name weighs much.

Two entries *pair* when the weighted share of substance they have in common (``score``,
0–100, weighted Dice) reaches ``PAIR_SCORE`` and they *disagree* on nothing: no slot holds
different values — not a label with two values (``Email: a@x`` / ``Email: b@x``), not a
value of one type (a number, date, time, version, e-mail, path, identifier, name or a CJK
ordinal such as 一期/二期) that each side has and the other lacks.

Candidates come from an inverted index on each entry's ``RARE_KEYS`` rarest tokens
(``candidates``); a token held by more than ``POSTING_CAP`` entries is not rare and indexes
nothing, so the work grows linearly with the entries, never with their pairs.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import chain, repeat

from rapidfuzz.distance import Indel

from memreview.queues.sameness import FUNCTION_WORDS, comparison_form, tokens
from memreview.workspace.fields import EMPHASIS_LABELS, label_of, width
from memreview.workspace.model import Entry

PAIR_SCORE = 75  # weighted share of substance two entries must have in common
REORDER_FLOOR = 55  # below it, no word order left out would bring a pair to PAIR_SCORE
RESTRUCTURED_SCORE = 90  # at or above it the words are the same, only their dress differs
RARE_KEYS = 4  # an entry is indexed under (and looks up) its rarest tokens
POSTING_CAP = 24  # a token held by more entries is not rare: it indexes nothing
MIN_TOKENS = 3  # an entry with fewer substance tokens states too little to pair
LABEL_SHARE = 0.1  # a label weighs this share of one token: the value carries the fact
LABEL_MAX = 14  # columns: a longer text before a colon is a sentence, not a label

# the kinds a value slot can hold: two entries that each hold a value of one kind the other
# lacks disagree (another number, date, name or version for the same fact)
VALUE_KINDS = frozenset(
    {"num", "date", "time", "version", "email", "url", "path", "ident", "name", "ordinal"}
)
SHAREABLE_KINDS = frozenset({"date", "time", "num", "email", "name"})
NAMING_KINDS = frozenset({"path", "url", "ident", "version"})
CLAUSE_SHARE = 0.15  # a clause of this share of an entry's weight, absent from the other: more said

_EXTRA_FUNCTION = frozenset(
    "i you he she we they me my our your his her their them us was were been being has have "
    "had do does did not no can could should would will may might must shall there here "
    "when where what which who how than into from about over under after before via per "
    "all any each every some more most other such only own same both yes".split()
)
# a rule's force and polarity: one side with ``always``/``never``/``不要`` the other lacks
# states another rule
FORCE_WORDS = frozenset(
    "always never not no don't dont doesn't cannot can't won't only must mustn't avoid "
    "sometimes usually often rarely forbidden".split()
)
FORCE_PAIRS = frozenset(
    "不要 不能 不可 不得 不许 禁止 必须 务必 总是 永远 从不 绝不 千万 只能 切勿 别再".split()
)
_STOP = (FUNCTION_WORDS | _EXTRA_FUNCTION | EMPHASIS_LABELS) - FORCE_WORDS
_PARTICLES = frozenset("的了着呢吧啊吗嘛")  # a character pair holding one is no word
_CJK_NUMERALS = "一二三四五六七八九十两百千"
_CJK_MEASURES = "期层号个次天周月年章节条步级版代阶段轮位名届"

_SPAN = re.compile(
    # a position no kind can start at (a space, a comma) is passed over at once
    r"(?=[\w~./`$¥€£@<>{}*+\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff-])(?:"
    # first the plain word and the CJK run that nothing longer can start (most tokens): the
    # engine stops there without trying every other kind
    r"(?P<fword>[A-Za-z][a-z'’]*(?![\w/@.:'’-]))"
    r"|(?P<fcjk>[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+(?![\w./@<>{}*-]))"
    r"|(?P<url>https?://[^\s)）>\]`'\"]+)"
    r"|(?P<email>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)"
    r"|(?P<code>`[^`\n]+`)"
    r"|(?P<date>\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{4}年\d{1,2}月(?:\d{1,2}[日号])?|\d{1,2}月\d{1,2}[日号])"
    r"|(?P<time>\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]m\b)?)"
    r"|(?P<path>(?:~|\.{1,2})?/?[\w.@<>{}*-]+(?:/[\w.@<>{}*-]*)+|[\w-]+\.(?:md|py|js|ts|json|jsonl|yaml|yml|toml|sh|db|txt|csv|html|sql|log|ini|cfg|conf)\b)"
    r"|(?P<version>\bv?\d+(?:\.\d+){2,}\b|\bv\d+(?:\.\d+)?\b)"
    r"|(?P<num>[$¥€£]?\d+(?:[.,]\d+)*(?:\s?(?i:%|[kmb]\b|km|kg|gb|mb|tb|ms|min|hrs?|h\b|s\b|x\b|yuan|usd|rmb|元|块|万|亿|个|次|天|小时|分钟|分|秒|点|期|层|号|年|月|周|岁|人|条|页|篇|倍))?)"
    r"|(?P<ident>[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+|[A-Za-z]*_[\w]*|[A-Za-z]+\d[\w]*|[a-z]+[A-Z][\w]*)"
    r"|(?P<word>[A-Za-z][A-Za-z'’]*)"
    r"|(?P<cjk>[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+))",
)
_COMMENT = re.compile(r"<!--.*?-->")
_TRIM = ".,;:!?)]}'\"`*"


class Token(str):
    """A token is its text (a ``str``: compared and hashed as one); ``kind`` says what it
    holds: one of VALUE_KINDS, ``force``, or ``word`` / ``cjk``."""

    __slots__ = ("kind",)

    def __new__(cls, text: str, kind: str) -> Token:
        tok = super().__new__(cls, text)
        tok.kind = kind
        return tok

    @property
    def text(self) -> str:
        return str(self)

    def __reduce__(self):
        return (Token, (str(self), self.kind))


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


@lru_cache(maxsize=1 << 16)
def _cjk_tokens(run: str) -> tuple[Token, ...]:
    if len(run) == 1:
        return () if run in _PARTICLES else (Token(run, "cjk"),)
    out = []
    for x in range(len(run) - 1):
        pair = run[x : x + 2]
        if pair[0] in _PARTICLES or pair[1] in _PARTICLES:
            continue
        ordinal = (pair[0] in _CJK_NUMERALS and pair[1] in _CJK_MEASURES) or (
            pair[0] == "第" and pair[1] in _CJK_NUMERALS
        )
        kind = "ordinal" if ordinal else "force" if pair in FORCE_PAIRS else "cjk"
        out.append(Token(pair, kind))
    return tuple(out)


def _code_tokens(inner: str) -> list[Token]:
    inner = inner.strip()
    if not inner:
        return []
    inside = _tokenize(inner, code=True)
    if len(inside) == 1:
        return inside
    return [Token(inner.lower(), "path" if "/" in inner else "ident")]


_SENTENCE_BREAK = frozenset(".!?:：。！？|>#*-—–")


def _at_start(text: str, at: int) -> bool:
    """Whether ``at`` opens a sentence: the text's start, or after a full stop, colon,
    pipe, heading or list mark (spaces between)."""
    k = at - 1
    while k >= 0 and k >= at - 2 and text[k].isspace():
        k -= 1
    return k < 0 or text[k] in _SENTENCE_BREAK


@lru_cache(maxsize=1 << 16)
def _word(raw: str, inside: bool) -> Token | None:
    low = raw.lower()
    if low.endswith(("'s", "’s")):
        low = low[:-2]
    low = low.strip("'’")
    if len(low) < 2 or low in _STOP:
        return None
    if low in FORCE_WORDS:
        return Token(low, "force")
    name = raw[:1].isupper() and ((raw.isupper() and len(raw) > 1) or inside)
    return Token(low if name else _stem(low), "name" if name else "word")


def _tokenize(text: str, code: bool = False) -> list[Token]:
    out: list[Token] = []
    add, extend = out.append, out.extend
    plain, cjk = _plain_word, _cjk_tokens
    start = True  # the first token opens the text's sentence
    for m in _SPAN.finditer(text):
        group = m.lastgroup
        raw = m[0]
        if group == "fword" or group == "word":
            # a capitalised word inside a sentence is a name
            if raw[0] <= "Z" and not start and not _at_start(text, m.start()):
                tok = _word(raw, True)
            else:
                tok = plain(raw)
            if tok is not None:
                add(tok)
        elif group == "fcjk" or group == "cjk":
            extend(cjk(raw))
        elif group == "code" and not code:
            extend(_code_tokens(raw[1:-1]))
        else:
            tok = _value(raw, group)
            if tok is not None:
                add(tok)
        start = False
    return out


@lru_cache(maxsize=1 << 16)
def _plain_word(raw: str) -> Token | None:
    """``_word`` of a word that opens its sentence or is not capitalised."""
    return _word(raw, False)


@lru_cache(maxsize=1 << 16)
def _value(raw: str, group: str | None) -> Token | None:
    """The token of a span of a value kind (a number, date, path…): its text trimmed and
    lowered (a number without its spaces and thousands' commas)."""
    value = raw.strip(_TRIM).lower()
    if group == "num":
        value = value.replace(" ", "").replace(",", "")
    return Token(value, group or "word") if value else None


@lru_cache(maxsize=1 << 16)
def substance(text: str) -> tuple[Token, ...]:
    """The substance tokens of an entry's text (raw or normalized), in order; dress and
    function words give none. A token that recurs in the text is kept once."""
    if "<!--" in text:
        text = _COMMENT.sub(" ", text)
    return tuple(dict.fromkeys(_tokenize(text)))


def entry_substance(e: Entry) -> tuple[Token, ...]:
    """An entry's substance: its text without the list marker or the emphasis label."""
    return substance(_body(e.text))


_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?")
_EMPHASIS = re.compile(r"^[*_\s]*([^\s:：!！*_]{1,12})[*_\s]*[:：!！][*_\s]*")


def _body(text: str) -> str:
    """An entry's text as one line, without its list marker or an emphasis label
    (``**重要：**``, ``Note:``)."""
    lines = text.split("\n")
    first = _MARKER.sub("", lines[0])
    m = _EMPHASIS.match(first)
    if m and m.group(1).lower() in EMPHASIS_LABELS:
        first = first[m.end() :]
    return " ".join([first, *(ln.strip() for ln in lines[1:])])


class Weights:
    """Each token's weight, log(1 + N / df) over the compared entries (df: how many hold
    it); a token every entry holds still weighs a little (log 2)."""

    def __init__(self, bags: list[tuple[Token, ...]]):
        self.df = df = Counter(chain.from_iterable(bags))  # (a bag holds a token once)
        self.n = n = max(1, len(bags))
        self.of = {t: math.log(1.0 + n / k) for t, k in df.items()}
        self._rare: dict[Token, int] | None = None

    @property
    def rare(self) -> dict[Token, int]:
        """The tokens another bag holds too and no more than POSTING_CAP bags hold, with
        how many hold each: the ones an index is built on."""
        if self._rare is None:
            self._rare = {t: k for t, k in self.df.items() if 1 < k <= POSTING_CAP}
        return self._rare

    def __call__(self, t: str) -> float:
        w = self.of.get(t)
        return math.log(1.0 + self.n) if w is None else w

    def total(self, bag) -> float:
        return sum(self(t) for t in bag)


def score(a, b, w: Weights, la=frozenset(), lb=frozenset()) -> float:
    """The weighted share of substance ``a`` and ``b`` have in common, 0–100 (weighted
    Dice); a side's label (``la``, ``lb``) weighs LABEL_SHARE of a token there."""
    sa, sb = set(a), set(b)
    return _dice(sa, sb, _side_total(sa, la, w), _side_total(sb, lb, w), la, lb, w)


def _side_total(bag: set, labels, w: Weights) -> float:
    of = w.of
    total = sum(map(of.get, bag, repeat(0.0)))
    if labels:
        # a label, however many tokens it has, names one slot
        total -= sum(map(of.get, labels, repeat(0.0))) * (1.0 - LABEL_SHARE / len(labels))
    return total


def _dice(sa: set, sb: set, total_a: float, total_b: float, la, lb, w: Weights) -> float:
    whole = total_a + total_b
    if whole <= 0:
        return 0.0
    of = w.of
    both = 0.0
    if la or lb:
        for t in sa & sb:
            x = of.get(t, 0.0)
            both += x * (LABEL_SHARE / len(la) if t in la else 1.0)
            both += x * (LABEL_SHARE / len(lb) if t in lb else 1.0)
    else:  # the same sums, without a label to weigh less
        for t in sa & sb:
            x = of.get(t, 0.0)
            both += x
            both += x
    return round(100.0 * both / whole, 1)


def _slots(e: Entry) -> dict[str, frozenset[Token]]:
    """Label → the substance of its value (with the lines under it), for a label line."""
    lv = label_of(e)
    if lv is None:
        return {}
    rest = e.text.split("\n")[1:]
    return {comparison_form(lv[0]): frozenset(substance(" ".join([lv[1], *rest])))}


def record_slots(entries: list[Entry]) -> dict[str, frozenset[Token]]:
    """Label → value substance over a record's label lines."""
    out: dict[str, frozenset[Token]] = {}
    for e in entries:
        out.update(_slots(e))
    return out


def slots_disagree(la: dict, lb: dict) -> bool:
    """Whether one label holds two values (neither value holds the other)."""
    return any(k in lb and v - lb[k] and lb[k] - v for k, v in la.items())


def label_tokens(e: Entry) -> frozenset[Token]:
    """The tokens of a label line's label that its value does not hold: they name the slot,
    the value is the fact, so they weigh ``LABEL_SHARE`` of a token's weight."""
    lv = label_of(e)
    if lv is None or width(lv[0]) > LABEL_MAX:
        return frozenset()
    return frozenset(substance(lv[0])) - set(substance(lv[1]))


def disagree(a: Entry, b: Entry, ta=None, tb=None) -> bool:
    """True when a slot holds different values: one label with two values; a value of one
    kind (number, date, name, …) on each side that the other lacks; at one position of the
    texts, a value on each side of that kind; or the texts differ in one place only, where
    each has its own substance (``华夏基金…`` / ``嘉实基金…``: another name)."""
    ta = entry_substance(a) if ta is None else ta
    tb = entry_substance(b) if tb is None else tb
    sa, sb = set(ta), set(tb)
    if _kinds(sa - sb) & _kinds(sb - sa):
        return True
    if {t for t in sa if t.kind == "force"} != {t for t in sb if t.kind == "force"}:
        return True  # always / never / must: another force, another rule
    if slots_disagree(_slots(a), _slots(b)):
        return True
    if _sequence_differs(a.text.lower(), b.text.lower(), sa & sb):
        return True  # first this, then that: the order is the fact
    kind_a, kind_b = _by_stem(ta), _by_stem(tb)
    la, lb = label_tokens(a), label_tokens(b)  # two labels of one value are dress
    substantive = []
    for x, y in differs(_body(a.text).lower(), _body(b.text).lower(), limit=64):
        # the kinds the entries' own tokens have (a name is told by its place in a sentence)
        tx = [kind_a.get(t.text, t) for t in substance(x) if t not in la]
        ty = [kind_b.get(t.text, t) for t in substance(y) if t not in lb]
        if _kinds(tx) & _kinds(ty):
            return True  # at one position, another number, name, path…
        if tx or ty:
            substantive.append((tx, ty))
    return len(substantive) == 1 and all(substantive[0])


# words that put steps in the order they are said (``before``/``之前`` are left out: their
# clause may come first or last with one meaning, ``Before X, Y`` / ``Y before X``)
_SEQUENCE = re.compile(r"先|再|然后|接着|随后|最后|\b(?:then|first)\b")


def _sequence_differs(text_a: str, text_b: str, shared: set) -> bool:
    """Whether shared substance stands on another side of a word of sequence (``先跑测试
    再上线`` / ``先上线再跑测试``, ``first X, then Y`` / ``first Y, then X``): there the
    order is what the entry says, not its dress."""
    marks_a = {m[0]: m.start() for m in reversed(list(_SEQUENCE.finditer(text_a)))}
    if not marks_a:
        return False
    marks_b = {m[0]: m.start() for m in reversed(list(_SEQUENCE.finditer(text_b)))}
    for mark, at_a in marks_a.items():
        at_b = marks_b.get(mark)
        if at_b is None:
            continue
        for t in shared:
            pa, pb = text_a.find(t), text_b.find(t)
            if pa < 0 or pb < 0:
                continue
            if (pa + len(t) <= at_a) != (pb + len(t) <= at_b):
                return True
    return False


_CLAUSE = re.compile(r"[,;，；。()（）—–]|\s-\s|\n")


def added_clause(a: Entry, b: Entry, w: Weights) -> bool:
    """Whether one side holds a clause (between commas, semicolons, brackets, dashes or on a
    line of its own) none of whose substance the other has, weighing CLAUSE_SHARE of its
    side or more: it states one more thing (``…, just to be safe``)."""
    for x, y in ((a, b), (b, a)):
        other = set(entry_substance(y))
        labels = label_tokens(x)
        total = w.total(t for t in entry_substance(x) if t not in labels)
        for part in _CLAUSE.split(_body(x.text)):
            toks = [t for t in substance(part) if t not in labels]
            if toks and not any(t in other for t in toks):
                if w.total(toks) >= CLAUSE_SHARE * total:
                    return True
    return False


def _by_stem(toks) -> dict[str, Token]:
    """Tokens by their text and by its stem (a name is kept whole, a span's word stemmed)."""
    out = {_stem(t.text): t for t in toks}
    out.update((t.text, t) for t in toks)
    return out


def _kinds(toks) -> set[str]:
    return {t.kind for t in toks if t.kind in VALUE_KINDS}


def enough(bag, labels=frozenset()) -> bool:
    """Whether an entry states enough to pair: MIN_TOKENS tokens, or a path, URL,
    identifier or version besides its label (a value that names one thing)."""
    return len(bag) >= MIN_TOKENS or any(t.kind in NAMING_KINDS for t in bag if t not in labels)


def _bare_shared_value(ta, la, tb, lb) -> bool:
    """Two label lines whose values are only a date, time, number, e-mail or name (values
    different things share: a deadline and a launch at one hour, two accounts on one
    address) and whose labels differ (neither holds the other)."""
    own_a, own_b = [t for t in ta if t not in la], [t for t in tb if t not in lb]
    if not (la or lb) or not own_a or not own_b:
        return False
    if any(t.kind not in SHAREABLE_KINDS for t in [*own_a, *own_b]):
        return False
    return bool(la - lb) and bool(lb - la)


def rare_keys(bag: tuple[Token, ...], w: Weights) -> list[Token]:
    """The ``RARE_KEYS`` rarest tokens of a bag that another bag holds too and no more than
    POSTING_CAP bags hold (ties: text order)."""
    rare = w.rare
    shared = [(rare[t], t) for t in rare.keys() & bag]
    if len(shared) > RARE_KEYS:
        shared = heapq.nsmallest(RARE_KEYS, shared)
    else:
        shared.sort()
    return [t for _k, t in shared]


def candidates(
    bags: list[tuple[Token, ...]], w: Weights, queries: set[int] | None = None
) -> set[tuple[int, int]]:
    """Pairs (i < j) of bags that share one of each other's rarest tokens, from an inverted
    index on those tokens; a token held by more than POSTING_CAP bags indexes nothing.
    With ``queries``, only pairs with a side among them (the entries whose duplicates
    matter: one side in a curated file)."""
    index: dict[str, list[int]] = defaultdict(list)
    asked = range(len(bags)) if queries is None else sorted(queries)
    keys: dict[int, list[Token]] = {i: rare_keys(bags[i], w) for i in asked}
    wanted = set(chain.from_iterable(keys.values()))  # a pair shares one of these
    for i, bag in enumerate(bags):
        ks = keys.get(i)
        if ks is None:
            if wanted.isdisjoint(bag):
                continue  # none of its tokens is a query's key: it pairs with no query
            ks = keys[i] = rare_keys(bag, w)
        for t in ks:
            index[t].append(i)
    out: set[tuple[int, int]] = set()
    for i in asked:
        for t in keys[i]:
            for j in index[t]:
                if j != i:
                    out.add((i, j) if i < j else (j, i))
    return out


def kind_of(ta, la, tb, lb, sc: float) -> str:
    """``restructured`` when the substance is the same or nearly so, or one side's (besides
    its label) holds the other's — a row with one more cell, a sentence around a row's
    values: only the dress differs; ``paraphrase`` when each side has words of its own."""
    sa, sb = set(ta), set(tb)
    own_a, own_b = sa - la, sb - lb
    if sc >= RESTRUCTURED_SCORE or sa <= sb or sb <= sa or own_a <= own_b or own_b <= own_a:
        return "restructured"
    return "paraphrase"


def evidence(a: Entry, b: Entry, w: Weights | None = None, also=()) -> dict:
    """Why two entries are one fact, for the owner: the substance they share (and every set
    of tokens in ``also`` holds: the group's other members), rarest first, and the spans
    where their words differ (``[a_text, b_text]``; ``""`` for none). Chinese is shared
    by character pairs: pairs that follow each other in ``a`` are one run of text
    (``中文日志会乱``, not ``中文, 文日, 日志, 志会, 会乱``)."""
    ta, tb = entry_substance(a), entry_substance(b)
    common = set(tb)
    for held in also:
        common &= held
    pieces = _runs(ta, common)
    if w is not None:
        pieces.sort(key=lambda p: (min(w.df.get(t, 0) for t in p[1]), -len(p[0])))
    else:
        pieces.sort(key=lambda p: (p[1][0].kind in ("word", "cjk"), -len(p[0])))
    return {"shared": [text for text, _toks in pieces], "differs": differs(a.norm, b.norm)}


def _runs(tokens: tuple[Token, ...], common: set) -> list[tuple[str, list[Token]]]:
    """The tokens of ``tokens`` in ``common``, in their order, as (text, tokens): a CJK
    character pair right after another it overlaps (its first character the other's last)
    joins it, one run of text."""
    out: list[tuple[str, list[Token]]] = []
    last = -2  # the place of the last token taken
    for k, t in enumerate(tokens):
        if t not in common:
            continue
        if (
            out
            and k == last + 1
            and t.kind == "cjk"
            and len(t) == 2
            and out[-1][1][-1].kind == "cjk"
            and out[-1][0][-1] == t[0]
        ):
            out[-1] = (out[-1][0] + t[1], [*out[-1][1], t])
        else:
            out.append((t.text, [t]))
        last = k
    return out


def differs(a_norm: str, b_norm: str, limit: int = 8) -> list[list[str]]:
    """The spans where two texts' words differ, as ``[a_span, b_span]`` pairs (a deletion
    next to an insertion is one replacement)."""
    ca, cb = comparison_form(a_norm), comparison_form(b_norm)
    if ca == cb:
        return []
    xa, xb = tokens(ca), tokens(cb)
    spans: list[list[int]] = []
    for op in Indel.opcodes(xa, xb):
        if op.tag == "equal":
            continue
        if spans and _adjacent(spans[-1], op, xa):
            spans[-1][1], spans[-1][3] = op.src_end, op.dest_end
        else:
            spans.append([op.src_start, op.src_end, op.dest_start, op.dest_end])
    out = []
    for s0, s1, d0, d1 in spans:
        x, y = _join(xa[s0:s1]), _join(xb[d0:d1])
        if _WORDY.search(x) or _WORDY.search(y):  # punctuation alone is dress
            out.append([x, y])
            if len(out) == limit:
                break
    return out


_WORDY = re.compile(r"[^\W_]")


def _adjacent(last: list[int], op, xa: list[str]) -> bool:
    """Whether a differing span continues the last one: right after it, or after one CJK
    character both share (华夏 / 鹏华 differ as a whole)."""
    gap_a, gap_b = op.src_start - last[1], op.dest_start - last[3]
    if gap_a == gap_b == 0:
        return True
    return gap_a == gap_b == 1 and "\u4e00" <= xa[last[1]] <= "\u9fff"


def _join(toks: list[str]) -> str:
    s = ""
    for t in toks:
        if s and t[:1].isascii() and t[:1].isalnum() and s[-1:].isascii() and s[-1:].isalnum():
            s += " "
        s += t
    return s


_SUMMARY = re.compile(
    r"^\W*(?:summary|tl;?dr|key takeaways?|takeaways|recap|conclusions?|总结|要点|结论|概要|小结|摘要)\b",
    re.I,
)


def in_summary(e: Entry) -> bool:
    """Whether an entry sits in a section titled Summary, TL;DR, 总结, 要点, 结论, 概要…"""
    return any(_SUMMARY.match(h.strip("#* ")) for h in e.heading_path)


@dataclass
class Group:
    entries: list[Entry]
    score: float  # the lowest score of the pairs that join it
    kind: str


class _Side:
    """One entry's substance as a pair's side: its tokens, label, weight, sufficiency."""

    __slots__ = ("_chars", "entry", "enough", "labels", "set", "total")

    def __init__(self, e: Entry, bag, w: Weights):
        self.entry = e
        self.set = set(bag)
        self.labels = label_tokens(e)
        self.total = _side_total(self.set, self.labels, w)
        self.enough = enough(bag, self.labels)
        self._chars: frozenset[str] | None = None

    @property
    def chars(self) -> frozenset[str]:
        """The CJK characters of its text."""
        if self._chars is None:
            self._chars = frozenset(_CJK_CHAR.findall(self.entry.text))
        return self._chars


_CJK_CHAR = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def _in_other_order(x: _Side, y: _Side) -> set[Token]:
    """The CJK character pairs of ``x`` that ``y`` lacks as a pair but holds as characters:
    ``任何文件删除前`` against ``删除任何文件之前`` — the pairs that cross a word in one
    order only. Word order is dress, so they are not substance of the pair."""
    chars = y.chars
    if not chars:
        return set()
    return {
        t
        for t in x.set - y.set
        if t.kind == "cjk" and len(t) == 2 and t[0] in chars and t[1] in chars
    } - x.labels


def _reordered_score(x: _Side, y: _Side, w: Weights) -> tuple[float, set, set]:
    """The pair's score with the CJK pairs that only another word order makes left out
    (``_in_other_order``), and each side's substance without them."""
    ja, jb = _in_other_order(x, y), _in_other_order(y, x)
    if not (ja or jb):
        return 0.0, x.set, y.set
    sa, sb = x.set - ja, y.set - jb
    of = w.of
    ta = x.total - sum(map(of.get, ja, repeat(0.0)))
    tb = y.total - sum(map(of.get, jb, repeat(0.0)))
    return _dice(sa, sb, ta, tb, x.labels, y.labels, w), sa, sb


def same_fact_groups(
    units: list[Entry],
    allowed,
    parallel,
    nested: dict[int, Entry] | None = None,
    w: Weights | None = None,
    queries: set[int] | None = None,
    bags: list[tuple[Token, ...]] | None = None,
) -> list[Group]:
    """The groups of entries that share most of their weighted substance and disagree on
    nothing (connected pairs); ``w``: the weights, when the caller has them; ``queries``:
    the units whose pairs matter (all when None).
    ``allowed(a, b)`` says whether a pair may be shown (scope, entries already in an item),
    ``parallel(a, b)`` whether the two are fields of parallel records. A nested line (``nested``: id → the item holding it, from
    ``sub_entries``) pairs only when the item holding it pairs with nothing."""
    nested = nested or {}
    bags = bags if bags is not None else [entry_substance(e) for e in units]
    w = w or Weights(bags)
    sides: dict[int, _Side] = {}

    def side(k: int) -> _Side:
        got = sides.get(k)
        if got is None:
            got = sides[k] = _Side(units[k], bags[k], w)
        return got

    found: list[tuple[int, int, float, str]] = []
    for i, j in sorted(candidates(bags, w, queries)):
        a, b = units[i], units[j]
        if (a.file, a.line) == (b.file, b.line):
            continue
        x, y = side(i), side(j)
        if not (x.enough and y.enough):
            continue  # too little to pair
        if not (x.labels or y.labels) and min(x.total, y.total) * 200 < PAIR_SCORE * (
            x.total + y.total
        ):
            continue  # too unequal to share most of it
        sc = _dice(x.set, y.set, x.total, y.total, x.labels, y.labels, w)
        ta, tb = bags[i], bags[j]
        if REORDER_FLOOR <= sc < PAIR_SCORE and x.chars and y.chars:
            sc, ta, tb = _reordered_score(x, y, w)
        if sc < PAIR_SCORE or _bare_shared_value(bags[i], x.labels, bags[j], y.labels):
            continue
        if not allowed(a, b) or a.file == b.file and (in_summary(a) or in_summary(b)):
            continue  # out of scope, or a document's summary restating its own points
        if disagree(a, b, bags[i], bags[j]) or added_clause(a, b, w) or parallel(a, b):
            continue
        found.append((i, j, sc, kind_of(ta, x.labels, tb, y.labels, sc)))
    paired = {id(units[k]) for i, j, _sc, _kind in found for k in (i, j)}
    edges = [
        edge for edge in found if not any(id(nested.get(id(units[k]))) in paired for k in edge[:2])
    ]
    return _groups(units, edges)


def _groups(units: list[Entry], edges) -> list[Group]:
    """Connected sets of the pairs; each with its lowest score, ``restructured`` only when
    every pair in it is."""
    parent = list(range(len(units)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j, _sc, _kind in edges:
        parent[find(i)] = find(j)
    low: dict[int, float] = {}
    kinds: dict[int, set[str]] = defaultdict(set)
    for i, _j, sc, kind in edges:
        r = find(i)
        low[r] = min(low.get(r, 100.0), sc)
        kinds[r].add(kind)
    members: dict[int, list[int]] = defaultdict(list)
    for k in range(len(units)):
        if find(k) in low:
            members[find(k)].append(k)
    out = []
    for r, ks in members.items():
        kind = "restructured" if kinds[r] == {"restructured"} else "paraphrase"
        out.append(Group([units[k] for k in ks], low[r], kind))
    out.sort(key=lambda g: (g.entries[0].file, g.entries[0].line))
    return out


_SUB_ITEM = re.compile(r"^\s+(?:[-*+]|\d{1,3}[.)])\s+\S")
_ANY_SUB_ITEM = re.compile(r"\n\s+(?:[-*+]|\d{1,3}[.)])\s+\S")


def sub_entries(e: Entry) -> list[Entry]:
    """The list items nested in an entry's lines (``3. Load the store first`` with
    ``   - path: …`` under it), each an entry of its own: a nested line states a fact too."""
    if "\n" not in e.text or e.kind not in ("bullet", "numbered"):
        return []
    if _ANY_SUB_ITEM.search(e.text) is None:
        return []  # no line under it is a list item (most entries: a look at once)
    out = []
    for k, raw in enumerate(e.text.split("\n")[1:], 1):
        if _SUB_ITEM.match(raw):
            line = e.line + k
            sub = replace(e, line=line, end_line=line, text=raw.strip(), kind="bullet")
            sub.known_norm = None
            out.append(sub)
    return out
