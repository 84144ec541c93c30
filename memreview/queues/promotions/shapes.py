"""The content shapes real pipelines promote that are not memory: front matter, chat and
message metadata, transcript lines, dream narration, one day's market figures, a status or
to-do board of one moment. One function each, returning the reason it fires (or None)."""

from __future__ import annotations

import re

from memreview.i18n import _
from memreview.queues.common import short

_FRONT_KEY = re.compile(
    r"(?:^|\n|\s)(layout|title|date|tags|categories|permalink|author|slug|draft|excerpt):\s*\S",
    re.I,
)
_FRONT_START = re.compile(r"^-{3}\s*(?:\n|\s)\w[\w-]*:\s")
_CHAT_META = re.compile(
    r"\b(chat_id|message_id|msg_id|sender_id|conversation_id|update_id|thread_id|reply_to_id|"
    r"from_id|session_id|channel_id)\b\W{0,3}\s*[:=]?",
    re.I,
)
# a transcript's own time stamp: ``[2026-11-20 14:03:22]``, ``[Thu 2026-11-20 14:03 GMT+8]``,
# ``2026-11-20T14:03:22Z``, at the start of the text or of one of its lines
_TRANSCRIPT_TIME = re.compile(
    r"(?:^|\n)\s*\[(?:[A-Z][a-z]{2},? )?\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}(?::\d{2})?[^\]\n]*\]|"
    r"(?:^|\n)\s*\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?"
)
_SPEAKER_USER = re.compile(r"(?:^|\n|\]\s*|\s{2})(User|Human|用户|我)\s*[:：]", re.I)
_SPEAKER_BOT = re.compile(
    r"(?:^|\n|\]\s*|[。.!?！？]\s+)(assistant|Assistant|ASSISTANT|AI|Bot|助手|机器人)\s*[:：]"
)
# what a person says to the agent, not a note about them: first or second person, a question,
# a request
_UTTERANCE = re.compile(
    r"\b(I|I'm|I've|me|my|you|your|can you|could you|please|let's)\b|[?？]|"
    r"[我你您]|请|帮我|能不能|可以吗|吗",
)
_DREAM = re.compile(
    r"\bI (?:dreamt|dreamed|drifted|wandered)\b|\bin (?:the|my|tonight's|last night's) dream\b|"
    r"\bthe dream (?:was|felt|showed|drifted)\b|梦见|梦里|梦中|梦境|做了一个梦|在梦",
    re.I,
)
_REVERIE = re.compile(
    r"\b(drift(?:ed|ing)?|wander(?:ed|ing)?|whisper(?:ed|ing|s)?|echo(?:ed|es|ing)?|shimmer\w*|"
    r"tapestry|fragments? of|half-remembered|surfac(?:ed|ing) like)\b|仿佛|恍惚|浮现|碎片般|思绪|低语",
    re.I,
)
_INDEX_NAMES = re.compile(
    r"上证|深证|创业板|科创50|沪深300|中证\d+|恒生|恒指|纳斯达克|纳指|标普|道琼斯|道指|日经|"
    r"\b(?:S&P ?500|SPX|Nasdaq|NASDAQ|Dow(?: Jones)?|DJIA|Nikkei|Hang Seng|FTSE|DAX|VIX)\b"
)
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_CHANGE = re.compile(r"(?:[+\-−]\s?\d+(?:\.\d+)?\s*%)|(?:[涨跌]\s?\d+(?:\.\d+)?\s*%)")
_HOLDINGS = re.compile(r"\b(?:holdings?|positions?|portfolio)\b|持仓|仓位|持有", re.I)
_TICKER_AMOUNT = re.compile(
    r"(?:\b[A-Z]{2,5}\b|[\u4e00-\u9fff]{2,6}|\b\d{6}\b)\s*[:：]?\s*[@×x]?\s*\d[\d,]*(?:\.\d+)?"
    r"\s*(?:shares|股|份|手|元|USD|\$)?"
)
PROSE_LINK = re.compile(
    r"\b(because|so that|to avoid|otherwise|instead|unless|when|whenever|after|before|"
    r"never|always|only|must|should|works|fails|breaks|needs?)\b|因为|否则|以免|避免|如果|之前|之后|"
    r"必须|不要|才能|就会|会导致",
    re.I,
)
_STATUS_EMOJI_LEAD = re.compile(r"^(?:⚠️|⚠|🔴|🟢|🟡|🟠|⬛|⬜|✅|❌|🆗)\s*")
_STATUS_WORD = re.compile(
    r"^\**(?:unreachable|warnings?|critical|ok|down|up|offline|online|healthy|degraded|failing|"
    r"alerts?|告警|警告|严重|正常|离线|在线|不可达|异常)\**\s*[:：]",
    re.I,
)
_STATUS_LABEL = re.compile(
    r"(?:^|[:：]\s|\s)\*{0,2}(?:status|状态)\*{0,2}\s*[:：]\s*\*{0,2}\s*", re.I
)
_STATUS_VALUE_EMOJI = re.compile(r"^(?:⚠️|⚠|🔴|🟢|🟡|🟠|⬛|⬜|✅|❌|🆗)")
_REPORT_LABEL = re.compile(
    r"(?:monitoring|status|health|system|heartbeat|host)\s+(?:snapshot|report|check)|"
    r"巡检|监控快照|状态快照|监控报告|健康检查",
    re.I,
)
_TIME_OF_DAY = re.compile(r"\b\d{1,2}:\d{2}\b")
_TODO_LABEL = re.compile(
    r"^\**(?:action items?(?: tracked)?(?:\s*\([^)]*\))?|to-?dos?(?: list)?|待办(?:事项)?|行动项)\**"
    r"\s*[:：]",
    re.I,
)


def label_of(body: str) -> str:
    """The text before the first colon followed by a space (``12:00`` is not one), or ''."""
    m = re.search(r":(?:\s|\*)|：", body)
    return body[: m.start()] if m and m.start() <= 100 else ""


def flag_metadata(body: str) -> str | None:
    """Front matter, chat or message metadata, or a transcript's time stamp."""
    keys = {m.group(1).lower() for m in _FRONT_KEY.finditer(body)}
    if _FRONT_START.match(body) or "layout" in keys or (len(keys) >= 2 and "title" in keys):
        return _("front matter of a page ({keys})").format(keys=", ".join(sorted(keys)) or "---")
    m = _CHAT_META.search(body)
    if m:
        return _("chat or message metadata ({text!r})").format(text=m.group(1))
    m = _TRANSCRIPT_TIME.search(body)
    if m:
        return _("a transcript's time stamp ({text!r})").format(text=short(m.group(0).strip(), 30))
    return None


def flag_transcript(body: str) -> str | None:
    """A line of a conversation: the agent's own turn, both speakers, or what the person said."""
    bot = _SPEAKER_BOT.search(body)
    user = _SPEAKER_USER.search(body)
    if bot and user:
        return _("a conversation: both speakers' lines")
    if bot and bot.start() <= 40:
        return _("the agent's turn of a conversation ({label!r})").format(label=bot.group(1))
    if user and user.start() <= 40 and _UTTERANCE.search(body[user.end() : user.end() + 120]):
        return _("what the person said in a conversation ({label!r})").format(label=user.group(1))
    return None


def flag_dream(body: str) -> str | None:
    """The dream diary's narration rather than a fact."""
    m = _DREAM.search(body)
    if m:
        return _("dream narration ({text!r})").format(text=m.group(0))
    words = {w.group(0).lower() for w in _REVERIE.finditer(body)}
    if len(words) >= 2:
        return _("dream narration ({text})").format(text=", ".join(sorted(words)[:3]))
    return None


def flag_moment(body: str) -> str | None:
    """A moment's figures or board: one day's index levels or holdings, a status line, a
    monitoring report, a to-do list of the day."""
    indexes = {m.group(0) for m in _INDEX_NAMES.finditer(body)}
    changes = len(_CHANGE.findall(body))
    if len(indexes) >= 2 and len(_NUMBER.findall(body)) >= 2:
        return _("index levels of one day ({names})").format(names=", ".join(sorted(indexes)[:3]))
    if changes >= 2 and (indexes or len(_NUMBER.findall(body)) >= 4):
        return _("{count} price changes of one day").format(count=changes)
    if _HOLDINGS.search(body) and len(_TICKER_AMOUNT.findall(body)) >= 3:
        return _("one day's holdings")
    label = label_of(body)
    if label and _REPORT_LABEL.search(label) and _TIME_OF_DAY.search(label):
        return _("a monitoring report of one moment ({label!r})").format(label=short(label, 40))
    if _TODO_LABEL.match(body):
        return _("a to-do list of one day ({label!r})").format(label=short(label or body, 30))
    rest = _STATUS_EMOJI_LEAD.sub("", body, count=1)
    if rest != body and _STATUS_WORD.match(rest) and not PROSE_LINK.search(rest):
        return _("a status board line ({text!r})").format(text=short(body, 30))
    for m in _STATUS_LABEL.finditer(body):
        if _STATUS_VALUE_EMOJI.match(body[m.end() :]):
            return _("a status line ({text!r})").format(text=short(body[m.start() :].strip(), 30))
    return None
