"""Credentials in memory text are found and masked; look-alikes are left alone."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memreview.masking import mask_in
from memreview.secrets import find_secrets, mask_secrets, mask_value

# (text, kind, the secret value) — English and Chinese, as agents write them into memory
TRUE_CASES = [
    (
        "- OpenAI key: sk-proj-Abc123def456ghi789jkl012mno345pqr678stu901vwx",
        "API key",
        "sk-proj-Abc123def456ghi789jkl012mno345pqr678stu901vwx",
    ),
    (
        "- ANTHROPIC_API_KEY=sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefGHIJ",
        "API key",
        "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefGHIJ",
    ),
    (
        "- CI uses ghp_abcdefghijklmnopqrstuvwxyz0123456789 to push",
        "GitHub Token",
        "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    ),
    ("- AWS access key AKIAIOSFODNN7EXAMPLE (prod)", "AWS Access Key", "AKIAIOSFODNN7EXAMPLE"),
    ("- Proton password: hunter2xyz!", "password or token", "hunter2xyz!"),
    ("- **密码**：Qwerty@2026", "password or token", "Qwerty@2026"),
    ("- 邮箱的密码是 abcd1234efgh，别忘了", "password or token", "abcd1234efgh"),
    (
        "- token=Zx8kq2LmN4pR7vT9wB3yC6dF1gH5jK0s",
        "password or token",
        "Zx8kq2LmN4pR7vT9wB3yC6dF1gH5jK0s",
    ),
    (
        "- wallet private key 4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
        "private key",
        "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
    ),
    (
        "- 钱包私钥 0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
        "private key",
        "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
    ),
    (
        "- seed: abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
        "abandon about",
        "seed phrase",
        "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
    ),
    (
        "- 助记词 1. legal 2. winner 3. thank 4. year 5. wave 6. sausage 7. worth 8. useful "
        "9. legal 10. winner 11. thank 12. yellow",
        "seed phrase",
        "legal 2. winner 3. thank 4. year 5. wave 6. sausage 7. worth 8. useful 9. legal "
        "10. winner 11. thank 12. yellow",
    ),
    (
        "- git remote https://deploy:pa55w0rdXYZ@git.example.com/repo.git",
        "Basic Auth Credentials",
        "pa55w0rdXYZ",
    ),
    # a table row's label cell, then the value in the next cell
    ("| SSH 密码 | Lm4nP8qs21 |", "password or token", "Lm4nP8qs21"),
    ("| Grafana password | Plover-82-lantern | rotate |", "password or token", "Plover-82-lantern"),
    # an account beside its password in prose
    (
        "Log in as admin / Fern7-quiet-Otter and change it.",
        "password or token",
        "Fern7-quiet-Otter",
    ),
    ("- 用户: root / 85Kq2mLs", "password or token", "85Kq2mLs"),
    ("- 新服务器 | 端口: 22 | 用户: root | 密码: Tq7vK2mR9x |", "password or token", "Tq7vK2mR9x"),
    (
        "- bot https://api.telegram.org/bot7715203948:AAHq3mZ8xW2pL5vN9cR4tY7uJ1kE6sD0fGh/send",
        "Telegram Bot Token",
        "7715203948:AAHq3mZ8xW2pL5vN9cR4tY7uJ1kE6sD0fGh",
    ),
    (
        "- key AIzaSyD3kF9mQ2xL7pV5nR8tW1cY4hJ6bN0eZs-",
        "Google API key",
        "AIzaSyD3kF9mQ2xL7pV5nR8tW1cY4hJ6bN0eZs-",
    ),
    ("- Node token: `relay-2026`", "password or token", "relay-2026"),
    # pasted JSON and camelCase names; a short aside between the label and its colon
    ('  "botToken": "Zx8kq2LmN4pR7vT9wB3y",', "password or token", "Zx8kq2LmN4pR7vT9wB3y"),
    ('{"password": "Tq7vK2mR9x"}', "password or token", "Tq7vK2mR9x"),
    ("- API Token (Zone DNS): Qm4vR8tLz2pW9xKc7NfB", "password or token", "Qm4vR8tLz2pW9xKc7NfB"),
    # a value after a space: a bearer header, a command's password flag
    (
        'curl -H "Authorization: Bearer Zx8kq2LmN4pR7vT9wB3yQ" https://api.example.com',
        "password or token",
        "Zx8kq2LmN4pR7vT9wB3yQ",
    ),
    ("mysql --password Hv9pLq2Wz4 -u root", "password or token", "Hv9pLq2Wz4"),
]


@pytest.mark.parametrize(("text", "kind", "value"), TRUE_CASES)
def test_a_credential_is_found_with_its_kind_and_exact_span(text, kind, value):
    found = find_secrets(text)
    assert [(s.kind, s.value) for s in found] == [(kind, value)]
    s = found[0]
    assert text[s.start : s.end] == value


@pytest.mark.parametrize(("text", "kind", "value"), TRUE_CASES)
def test_the_masked_text_never_holds_the_whole_value(text, kind, value):
    masked = mask_secrets(text)
    assert value not in masked
    assert masked != text
    # what stays of the value: a provider's public prefix, at most four characters at the end
    shown = mask_value(value, kind)
    assert len(shown) < len(value)


LOOK_ALIKES = [
    "- Set OPENAI_API_KEY in the environment, never in memory files",
    "- wallet address 0x52908400098527886E0F7030069857D2E4169EE7",
    "- sha256: 4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
    "- request id 550e8400-e29b-41d4-a716-446655440000",
    "- password: (see 1Password)",
    "- token: <redacted>",
    "- api_key: ${OPENAI_API_KEY}",
    "- password: ********",
    "- The deploy key lives in 1Password: Proton",
    "- We rotate the API key monthly; key: rotated",
    "- The token budget is 12000 tokens per session",
    "- Password reset flow: the user sets a new password: done via the portal",
    "- 密码：在 1Password 里",
    "- 不要把密码写进记忆文件",
    "- Read the project README and follow the steps about building the firmware for the device",
    "- [[win11-python-default-codepage-gbk]] supersedes [[win11-utf8-default]]",
    "- Use port 18789 for the gateway <!-- trigger: gateway, port --> <!-- importance: 3 -->",
    "- source=memory/2026-08-02.md:42-42 and commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
    # elided, masked, placeholder and example values
    "- API Key: `tvly-dev-...` (set in the environment)",
    "  - apiKey: `sk-df6bcc...`",
    "- token: sk-…f3Qa",
    "GITHUB_TOKEN=ghp_xxxxxxxxxxxx",
    '- GITHUB_TOKEN = "ghp_xxxx"  # set it in the secrets store',
    '- the mock accepts api_key="anything"',
    "    password='app_password'  # an app password when 2FA is on",
    "- 令牌：已配置在环境变量里",
    "| 密钥位置 | 见 `~/.config/mail/secret` |",
    "| NAS password | `<in the vault>` | shared |",
    # a detection regex naming key variables
    'rg -n "TAVILY_API_KEY=.*[A-Za-z0-9_-]{10}|OPENAI_API_KEY=.*[A-Za-z0-9_-]{10}"',
    "- 检测脚本用正则 `TOKEN=[A-Za-z0-9]{32}` 扫描泄露",
    # prose after a label word
    "2. Generate API token: Settings → API",
    "- Next controlled pass: audit-only hardening first",
    "- confirmed the token is valid: the call returned 200",
    "- password: changed after the move",
    "- copy /root/backup to the NAS, then admin/settings/users",
    'curl -H "Authorization: Bearer $TOKEN" https://api.example.com',
    "- Bearer tokens expire hourly; ask for a new one",
    # a label word inside another word is no label
    "- bypass: Zx8kq2LmN4 was the route we took",
    # twelve common English words that are all BIP-39 words but fail the checksum, no seed word
    "- we need to find a good way to check each word in the list before we act",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_a_look_alike_is_not_a_secret(text):
    assert find_secrets(text) == []
    assert mask_secrets(text) == text


def test_several_secrets_in_one_entry_are_all_masked():
    text = "- token=Zx8kq2LmN4pR7vT9wB3yC6dF1gH5jK0s and AKIAIOSFODNN7EXAMPLE"
    masked = mask_secrets(text)
    assert "Zx8kq2LmN4pR7vT9wB3yC6dF1gH5jK0s" not in masked
    assert "AKIAIOSFODNN7EXAMPLE" not in masked
    assert len(find_secrets(text)) == 2


def test_a_pem_block_is_masked_whole():
    text = (
        "- deploy key:\n  -----BEGIN OPENSSH PRIVATE KEY-----\n  b3BlbnNzaC1rZXktdjEAAAAABG5vbmUA\n"
        "  -----END OPENSSH PRIVATE KEY-----"
    )
    masked = mask_secrets(text)
    assert "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUA" not in masked
    assert find_secrets(text)[0].kind == "private key"


def test_mask_keeps_a_provider_prefix_and_the_last_four():
    assert mask_value("sk-proj-Abc123def456ghi789jkl012mno345pqr678stu901vwx") == "sk-proj-…1vwx"
    assert mask_value("hunter2xyz!") == "…z!"
    assert mask_value("abc") == "…"


def _each_string_masked(obj):
    if isinstance(obj, str):
        return mask_secrets(obj)
    if isinstance(obj, list):
        return [_each_string_masked(v) for v in obj]
    if isinstance(obj, dict):
        return {k: _each_string_masked(v) for k, v in obj.items()}
    return obj


# pieces of the true cases, cut where a gate could be cut, and separators the seed finder
# skips (a number list), so that runs and labels meet across and within strings
_PIECES = [t for text, _kind, _value in TRUE_CASES for t in (text, text[:20], text[18:])] + [
    " ",
    "\n",
    "\x00",
    "1. ",
    ": ",
    "abandon ",
    "about",
    "İ",
    "Σ",
    "key",
    "token=",
    "://",
    "@",
]
_DOCS = st.recursive(
    st.lists(st.sampled_from(_PIECES), max_size=6).map("".join) | st.integers(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from("abc"), inner),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(doc=_DOCS)
def test_masking_a_whole_document_masks_each_string_as_masking_it_alone_would(doc):
    # mask_in gates all the strings at once: a credential in any one of them is still found
    assert mask_in(doc) == _each_string_masked(doc)
    if _each_string_masked(doc) == doc:
        assert mask_in(doc) is doc
