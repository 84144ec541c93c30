"""The secrets queue: one masked item per memory line holding a credential."""

from __future__ import annotations

import json
from datetime import date

from memreview.queues.secrets import secrets

TODAY = date(2026, 11, 30)
KEY = "sk-proj-Abc123def456ghi789jkl012mno345pqr678stu901vwx"
PASSWORD = "Qwerty@2026!x"


def test_credentials_in_memory_files_become_masked_items(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": (
                "# Memory\n\n## Tools\n"
                f"- OpenAI key for the bot: {KEY}\n"
                "- Set OPENAI_API_KEY in the environment, never in memory\n"
                "- wallet address 0x52908400098527886E0F7030069857D2E4169EE7\n"
            ),
            "memory/accounts.md": f"# 账号\n\n## 邮箱\n- **密码**：{PASSWORD}\n- 密码：在 1Password 里\n",
        }
    )
    items = secrets(ws, TODAY)
    assert [(it["ref"]["file"], it["ref"]["line"]) for it in items] == [
        ("MEMORY.md", 4),
        ("memory/accounts.md", 4),
    ]
    assert items[0]["kinds"] == ["API key"]
    assert items[0]["masked"] == ["sk-proj-…1vwx"]
    dumped = json.dumps(items, ensure_ascii=False)
    assert KEY not in dumped and PASSWORD not in dumped


def test_a_private_key_block_is_one_item_over_its_lines(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": (
                "# Memory\n\n- deploy key:\n"
                "  -----BEGIN OPENSSH PRIVATE KEY-----\n"
                "  b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"
                "  -----END OPENSSH PRIVATE KEY-----\n"
                "- after the key\n"
            )
        }
    )
    items = secrets(ws, TODAY)
    assert len(items) == 1
    assert (items[0]["ref"]["line"], items[0]["ref"]["end_line"]) == (4, 6)
    assert "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ" not in json.dumps(items)


def test_the_id_is_stable_when_lines_move_and_says_nothing_of_the_value(make_ws):
    a = secrets(make_ws({"MEMORY.md": f"# M\n- key {KEY}\n"}), TODAY)
    b = secrets(make_ws({"MEMORY.md": f"# M\n- new line above\n\n- key {KEY}\n"}), TODAY)
    assert a[0]["id"] == b[0]["id"]
    other = "sk-proj-Zzz123def456ghi789jkl012mno345pqr678stu901vwx"
    c = secrets(make_ws({"MEMORY.md": f"# M\n- key {other}\n"}), TODAY)
    # the same mask (same prefix, same last four) gives the same id: the id cannot tell values apart
    assert c[0]["id"] == a[0]["id"]


def test_a_workspace_without_credentials_has_an_empty_queue(make_ws):
    ws = make_ws(
        {
            "MEMORY.md": (
                "# Memory\n- The token budget is 12000 tokens per session\n"
                "- request id 550e8400-e29b-41d4-a716-446655440000\n"
                "- 不要把密码写进记忆文件\n"
            )
        }
    )
    assert secrets(ws, TODAY) == []


def test_the_lines_of_a_log_s_gate_hits_are_counted_once_through_the_text():
    import random

    from memreview.queues.secrets import hit_lines

    r = random.Random(5)
    for _ in range(200):
        text = "".join(r.choice("ab\n") for _ in range(r.randint(0, 300)))
        hits = {r.randrange(len(text) + 1) for _ in range(r.randint(1, 90))}
        assert hit_lines(text, hits) == sorted({text.count("\n", 0, p) for p in hits})
