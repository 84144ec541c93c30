"""What a credential's value looks like once a label names it (``password:``, ``密码：``, a
table's label cell, ``admin / …``), and what only looks like one: a placeholder, an elided or
masked value, a variable's name, a regex, an example's word, a path, prose. The finder
(:mod:`memreview.secrets`) uses these rules for every labelled value."""

from __future__ import annotations

import re

# --- labelled values --------------------------------------------------------------------------

# Labels that name a password: any value after them that is not a placeholder counts. The
# other labels (token, key, secret…) also head prose ("Generate API token: Settings"), so a
# value after them counts only when it looks made, not written (see looks_made).
_STRONG = r"passwords?|passwd|pwd|passphrase"
_LABELS = (
    _STRONG + r"|pass|secret|client[_\s-]?secret|token|access[_\s-]?token"
    r"|refresh[_\s-]?token|auth[_\s-]?token|bearer|api[_\s-]?key|apikey|access[_\s-]?key"
    r"|secret[_\s-]?key|private[_\s-]?key"
)
_STRONG_RE = re.compile(r"(?i)^(?:" + _STRONG + r")$")
# the label alone or ending a camelCase name (``botToken``, ``apiKey``), closed by a quote in
# pasted JSON (``"password": …``), a short aside before the colon (``API token (DNS): …``)
LABELLED = re.compile(
    r"(?i)(?:(?<![A-Za-z0-9])|(?<=(?-i:[a-z]))(?=(?-i:[A-Z])))(?P<label>"
    + _LABELS
    + r")(?![A-Za-z0-9])[\"']?\**\s*(?:[(（][^()（）\n]{1,30}[)）]\s*)?"
    r"(?P<sep>[:=：]|is\s)\s*\**\s*"
    r"(?P<q>[\"'`]?)(?P<value>[^\s\"'`，。；;,|]+)"
)
_ZH_LABELS = r"密码|口令|密钥|令牌|私钥|秘钥"
LABELLED_ZH = re.compile(
    r"(?P<label>" + _ZH_LABELS + r")\**\s*(?:[:=：]|是|为)\s*\**\s*(?P<q>[\"'`“]?)"
    r"(?P<value>[^\s\"'`”，。；;,|]+)"
)
# a table row's label cell (``| SSH 密码 | value |``, ``| API Key | value |``): a short cell
# ending with a label, the value alone in the next cell
CELL = re.compile(
    r"(?i)\|[^|\n]{0,24}?(?<![A-Za-z0-9])(?P<label>"
    + _LABELS
    + "|"
    + _ZH_LABELS
    + r")\**\s*\|\s*\**(?P<q>[\"'`]?)(?P<value>[^\s\"'`|]+)[\"'`]?\**\s*(?=\|)"
)
# ``admin / <password>``, ``root/<password>``, ``name@mail.example / <password>``: an account
# and its password side by side in prose
ACCOUNT_PAIR = re.compile(
    r"(?i)(?<![\w@.\-/])(?:admin|root|ubuntu|[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+)"
    r" ?/ ?(?P<q>[`\"']?)(?P<value>[^\s/，。；;,|`\"'()（）]{6,})"
)
# a value after a space: ``Authorization: Bearer <token>``, ``--password <value>``
SPACED = re.compile(
    r"(?i)(?:(?<![A-Za-z0-9])bearer|(?<![\w-])--(?:password|passwd|pass|token|api[_-]?key|secret))"
    r"\s+(?P<q>[\"'`]?)(?P<value>[^\s\"'`，。；;,|<>]+)"
)
# KEY=value assignments (env files pasted into memory): the name says what it is.
ASSIGN = re.compile(
    r"\b(?P<name>[A-Z][A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASS|PWD))\s*=\s*(?P<q>[\"']?)"
    r"(?P<value>[A-Za-z0-9+/_\-.=]{12,})"
)
_PLACEHOLDER = re.compile(
    r"(?ix)^(?: <.*> | \$\{?[A-Za-z_][A-Za-z0-9_]*\}? | [*•xX\#.…\-_]+ | \[.* | \(.* | %.*%"
    r" | (?:none|null|nil|n/?a|empty|unset|set|required|optional|hidden|redacted|masked|"
    r"changeme|example|your[_-].*|todo|tbd|see|in|from|via|stored|saved|rotated|same|env|"
    r"环境变量|见|无|空|略|已.*))$"
)
_VAR_NAME = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")  # OPENAI_API_KEY: a name, not a value
# an elided or masked value (``tvly-dev-...``, ``sk-…f3Qa``, ``ghp_xxxx``, ``abc***``)
ELIDED = re.compile(r"\.\.\.|…|[xX]{3,}|\*{3,}|•")
# a regular expression, not a value (``.*[A-Za-z0-9_-]{10}``, ``\d+``, ``(?i)``)
_REGEX = re.compile(
    r"\.[*+?]|\\[dwsSbBW]|\[[^\]]*[a-zA-Z0-9]-[a-zA-Z0-9][^\]]*\]|\{\d+(?:,\d*)?\}|\(\?"
)
# words standing for a value in an example (``api_key="anything"``, ``password='app_password'``)
_DUMMY = re.compile(
    r"(?ix)^(?:anything|something|whatever|foo|bar|baz|foobar|dummy|test|testing|sample|"
    r"placeholder|value|secret|password|passwd|token|apikey|api_key|mypassword|yourpassword|"
    r"letmein|qwerty|hunter2|abc123|123456|12345678|123456789|"
    r"[a-z]+(?:[_-][a-z]+)*[_-](?:password|pass|pwd|token|key|secret)|"
    r"(?:password|pass|pwd|token|key|secret)(?:[_-][a-z]+)+)$"
)
_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def looks_made(value: str) -> bool:
    """Whether a value reads as generated or chosen rather than written: a digit in it, upper
    and lower case mixed in ten characters or more, or twenty characters or more."""
    return (
        any(c.isdigit() for c in value)
        or (len(value) >= 10 and value.lower() != value and value.upper() != value)
        or len(value) >= 20
    )


def labelled_value(label: str, value: str, quoted: bool) -> bool:
    """Whether the value after a label is a credential: not a placeholder, and for a label
    that also heads prose (token, key…), a value that looks made; after a password label, a
    plain lower-case word counts only quoted (``password: changed`` is prose)."""
    v = value
    if is_placeholder(v):
        return False
    if _STRONG_RE.match(label) or label in ("密码", "口令"):
        return quoted or not v.isalpha() or v.lower() != v
    return looks_made(v)


def is_placeholder(value: str) -> bool:
    """A placeholder, an elided or masked value, a name, a regex or an example's word."""
    v = value.strip("*_`\"'")
    return (
        not v
        or len(v) < 6
        or bool(_PLACEHOLDER.match(v))
        or bool(_VAR_NAME.match(v))
        or bool(ELIDED.search(v))
        or bool(_REGEX.search(v))
        or bool(_DUMMY.match(v))
        or bool(_CJK.match(v))
        or v.startswith(("/", "~/", "./", "http://", "https://", "$("))
    )
