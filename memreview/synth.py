"""Synthetic workspaces for tests and benchmarks (DESIGN §8).

    python -m memreview.synth OUT --scale N [--seed S] [--manifest FILE.json]

Scale 1.0 is the top scale of DESIGN §8: about 25,000 memory entries and anchors, 90 daily
logs of 2,000 lines, 20,000 fragments in ``dreams.db`` and 50,000 recall-log lines. Every
dialect of DESIGN §1 is written, and every queue of §2 gets planted work at any scale
(``generate`` returns a manifest of what was planted). The output depends only on
``scale`` and ``seed``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

from rapidfuzz import fuzz, process

from memreview.workspace.normalize import confirmed_key, fingerprint, normalize

REVIEW_DATE = date(2026, 11, 29)
START_DATE = date(2026, 2, 9)  # the fleet's first memories

# Top-scale sizes (scale 1.0).
TOP_ENTRIES = 25_000
TOP_LOGS = 90
TOP_LOG_LINES = 2_000
TOP_FRAGMENTS = 20_000
TOP_RECALLS = 50_000
TOP_PROJECTS = 600

ANCHORS_PER_FILE = 250
INCIDENT_WORDS = ("incident", "事故", "postmortem", "复盘")

# ---------------------------------------------------------------------------------------
# Word lists. Entries are built from several independent slots, so two random entries
# differ in most of their characters (rapidfuzz ratio well below 90).

AGENTS = ["xiaoman", "bounty-hunter", "airdrop-hunter", "hunter-content", "researcher", "reviewer"]
AGENT_NAMES = {
    "xiaoman": "小满",
    "bounty-hunter": "时迁",
    "airdrop-hunter": "戴宗",
    "hunter-content": "吴用",
    "researcher": "高斯",
    "reviewer": "苏格",
}
TASKS_CN = [
    "夜间对账",
    "心跳扫描",
    "日报汇总",
    "赏金回查",
    "空投资格检查",
    "周报生成",
    "索引刷新",
    "git 同步",
    "账单核对",
    "会话补录",
    "知识回写",
    "反思预备",
    "浅睡扫描",
    "深睡打分",
    "邮件监控",
    "链上余额快照",
    "岗位抓取",
    "文章排期",
]
PROBLEMS_CN = [
    "输出文件是空的",
    "日志里全是乱码",
    "卡在 git 锁上",
    "连续三次超时",
    "把同一条记录写了两遍",
    "拿到的是过期数据",
    "被限流了",
    "退出码是 0 但什么都没写",
    "读到了旧版配置",
    "token 预算用光",
    "没等到主人确认就继续了",
    "把测试网当成主网",
    "漏掉了凌晨那一段会话",
    "时区按 UTC 算错了一天",
    "push 被拒后没有重试",
]
FIXES_CN = [
    "加了一道非空校验",
    "改成显式写 encoding",
    "先 flock 再跑",
    "把超时调到 120 秒",
    "改由 memlog.sh 统一写入",
    "按日期去重后再写",
    "加了指数退避",
    "第二天早上人工核对",
    "在 NOW.md 里加了一条待办",
    "把预算上限写进配置",
    "拆成两个脚本隔 15 分钟跑",
    "换成小模型判定",
    "回滚到上一版",
    "把路径写死成绝对路径",
    "让它等主人回复再动",
]
TOOLS = [
    "openclaw gateway",
    "memlog.sh",
    "index-update.sh",
    "now-cleanup.sh",
    "dreaming",
    "memory_search.py",
    "飞书 webhook",
    "cron",
    "systemd timer",
    "Neo4j",
    "SQLite FTS5",
    "embedding 服务",
    "git hook",
    "Obsidian 同步",
    "jq 过滤器",
    "Windows 计划任务",
]
SETTINGS = [
    "超时",
    "并发数",
    "重试次数",
    "日志级别",
    "批大小",
    "半衰期",
    "阈值",
    "端口",
    "工作目录",
    "时区",
    "模型档位",
    "上下文上限",
    "截断长度",
    "心跳间隔",
]
VALUES = [
    "30 秒",
    "120 秒",
    "4",
    "8",
    "debug",
    "0.35",
    "30 天",
    "18789",
    "UTC+8",
    "Haiku",
    "12000 token",
    "360 字",
    "60 分钟",
    "2 次",
    "500 行",
    "/srv/agents",
]
EFFECTS_CN = [
    "夜里再没卡过",
    "账单降了三成",
    "召回精度明显变好",
    "重复写入消失了",
    "早上的日报能准时到",
    "误报少了一半",
    "主人不用再手动补上下文",
    "git 冲突少了很多",
    "乱码问题没再出现",
    "启动时间从 40 秒降到 9 秒",
    "周报终于不缺数据",
    "低峰期 Gas 费省了四成",
    "审阅队列短了一截",
]
PREF_VERBS = ["希望", "更喜欢", "不想再看到", "要求", "习惯", "讨厌", "坚持"]
PREF_OBJS = [
    "早上 7 点前收到一屏以内的日报",
    "结论写在第一段",
    "报告里带原始链接",
    "中文回复、代码注释用英文",
    "先给方案再动手",
    "钱包操作每一步都确认",
    "周报按项目分组",
    "表格而不是长段落",
    "每条提醒带截止日期",
    "少用感叹号",
    "失败时直接说失败",
    "图表用深色主题",
    "数字保留两位小数",
    "文件名带日期",
]
PREF_REASONS = [
    "因为通勤路上只看手机",
    "不然会漏掉重点",
    "方便转给合作方",
    "这样能直接复制",
    "上次被长段落坑过",
    "手机上表格更好扫",
    "他不想猜",
    "省得来回问",
    "他周末不看电脑",
    "深夜看亮色刺眼",
]
PREF_WHEN = [
    "出差时",
    "周一早上",
    "忙的时候",
    "月底对账那几天",
    "开会间隙",
    "深夜",
    "周末",
    "假期里",
    "看手机时",
    "赶稿期间",
    "",
    "最近",
]
PLATFORMS = ["Galxe", "Layer3", "Zealy", "QuestN", "TaskOn", "Gitcoin", "Dework", "Intract"]
TASK_KINDS = [
    "推文",
    "测试网反馈",
    "文档翻译",
    "bug 报告",
    "教程视频",
    "社区问答",
    "合约审查",
    "数据标注",
]
OBSERVATIONS_CN = [
    "审核 36 小时才通过",
    "奖励比公告少一半",
    "截止时间只剩 20 小时",
    "要求绑定手机号",
    "提交后状态一直是 pending",
    "客服两天没回",
    "领取时 Gas 费比奖励还高",
    "必须先持有 NFT",
    "同一任务被改过两次规则",
    "审核员要求补截图",
    "只接受英文提交",
    "奖励以积分发放",
]
PLACES_CN = ["Pi 上", "工作站上", "云主机上", "NAS 上", "笔记本上"]
SERVICES = [
    "gateway",
    "dreaming 管线",
    "反向代理",
    "Neo4j",
    "备份脚本",
    "飞书机器人",
    "邮件监控",
    "监控面板",
    "向量索引",
    "定时任务",
]
PATHS = [
    "端口 18789",
    "端口 7687",
    "/srv/agents/state",
    "~/.openclaw/workspace",
    "/var/log/agents",
    "D:\\agents\\logs",
    "端口 8443",
    "/mnt/ssd/backup",
]
CAVEATS_CN = [
    "改之前要先停 dreaming",
    "重启必须主人在场",
    "改完要同步改 webhook",
    "目录权限只给 agent 用户",
    "别和备份任务撞在整点",
    "升级前先确认版本",
    "磁盘剩余低于 10% 会静默失败",
    "路径里不能有中文",
]
SYMPTOMS_CN = [
    "日报没发出来",
    "召回全是旧内容",
    "心跳只跑了一轮",
    "日志突然变空",
    "push 一直失败",
    "dreaming 晋升为零",
    "账单突然翻倍",
    "同一提醒发了三遍",
    "索引里文件数对不上",
    "启动摘要里缺项目",
]
CHECKS_CN = [
    "cron 的最后一次退出时间",
    "git 锁有没有残留",
    "磁盘剩余空间",
    "当天日志的行数",
    "API 配额面板",
    "gateway 版本号",
    "计划任务的运行账户",
    "时区设置",
    "webhook 的签名密钥",
    "SQLite 的 WAL 文件",
]
CAUSES_CN = [
    "上游接口改了字段",
    "锁没释放",
    "配额用完",
    "编码不对",
    "两份安装打架",
    "时钟漂移",
    "权限被收回",
    "磁盘满了",
    "模型切档后格式变了",
    "网络分区",
]
ACTIONS_EN = [
    "check the deadline",
    "confirm with the owner",
    "pull the latest memory",
    "verify the wallet",
    "snapshot the state",
    "read HEARTBEAT.md",
    "stop the dreaming job",
    "rotate the logs",
    "re-run the index",
    "back up the db",
]
EVENTS_EN = [
    "a gateway restart",
    "submitting a bounty",
    "any wallet signature",
    "the nightly sync",
    "upgrading openclaw",
    "touching the billing config",
    "the weekly review",
    "a mainnet transaction",
    "publishing an article",
    "changing the cron table",
]
CONSEQUENCES_EN = [
    "the run silently writes nothing",
    "the reward is lost",
    "we pay twice",
    "the owner gets paged at 3am",
    "the git push races",
    "the report goes stale",
    "the index drifts",
    "the agent repeats a failed task",
    "the budget runs out mid-week",
    "the wrong account gets used",
]
PLACES_EN = ["the Pi", "the workstation", "the NAS", "the cloud box", "the laptop"]
VERBS_EN = ["rotates", "compacts", "backs up", "re-indexes", "syncs", "prunes", "checks"]
OBJECTS_EN = [
    "the recall log",
    "daily logs older than 30 days",
    "dreams.db",
    "the INDEX.md",
    "the bounty sheet",
    "session jsonl files",
    "the anchor embeddings",
    "the reports folder",
    "the HEARTBEAT file",
    "billing exports",
]
UNITS_EN = ["hours", "days", "weeks"]
STATUS_EN = ["approved", "rejected", "pending", "expired", "paid", "disputed"]
OBS_EN = [
    "reviewers want a screenshot",
    "payout came in points",
    "rules changed twice",
    "deadline was under a day",
    "needs a mainnet tx",
    "KYC required",
    "only English",
    "reward halved after launch",
]
TODOS_CN = [
    "改端口后同步 webhook",
    "清掉旧的 CLI 路径",
    "重新登记计划任务",
    "更新 runbook",
    "通知主人看一眼账单",
    "把新路径写进 INDEX.md",
    "重建向量索引",
    "核对一次输出",
]
VERSIONS = ["2026.6", "2026.7.2", "2026.9", "2026.10.1", "2026.11", "v3.2", "v4.0", "0.9.8"]
WEEKDAYS = ["周一", "周二", "周三", "周四", "周五", "周六", "周日"]
CHANNELS_CN = ["飞书群", "主人私聊", "邮件", "Obsidian 收件箱", "周报频道"]
THINGS_CN = ["赏金收益", "空投进度", "文章数据", "账单", "记忆增长", "失败任务", "待办", "新平台"]
GBK_LESSONS = [
    "症状：夜间对账输出全是乱码，脚本退出码却是 0，连续三周没人发现",
    "根因：Windows 上 Python 的 open() 默认用本地码页 cp936（GBK），不是 UTF-8",
    '解法：open() 一律写 encoding="utf-8"，计划任务里设 PYTHONUTF8=1，控制台先 chcp 65001',
    '验证：python -c "import locale; print(locale.getpreferredencoding())" 应该打印 UTF-8',
]
LOG_TITLES = ["任务完成", "对账", "心跳补录", "主人备注", "失败", "提醒", "会话补录", "账单"]
EMOTIONS = ["平静", "期待", "开心", "焦虑", "烦躁", "认可", "谨慎", "严肃", "好奇", "习惯"]

# Only for archived fragments that never reached a memory file: vocabulary used nowhere else.
CHAT_SUBJECTS = ["主人随口提到", "闲聊里说起", "午饭时聊到", "视频会议前说了句", "深夜顺口一提"]
CHAT_BRANDS = [
    "Keychron",
    "Bose",
    "Kindle",
    "Dyson",
    "Nintendo",
    "Fujifilm",
    "Lego",
    "Garmin",
    "Moka",
    "Aeropress",
    "Muji",
    "Uniqlo",
    "Patagonia",
    "Ikea",
    "Anker",
    "Xbox",
]
CHAT_ITEMS = [
    "新出的机械键盘",
    "降噪耳机",
    "电子书阅读器",
    "吸尘器",
    "游戏机",
    "胶片相机",
    "积木套装",
    "运动手表",
    "摩卡壶",
    "手冲壶",
    "收纳盒",
    "羽绒服",
    "冲锋衣",
    "书架",
    "充电宝",
    "手柄",
]
CHAT_TAILS = [
    "可能双十二入手",
    "说等降价再看",
    "想送给朋友",
    "还在纠结颜色",
    "只是看看",
    "说明年再说",
    "问了我哪家便宜",
    "让我记一下型号",
]

# Anchor ids and project keys come from disjoint vocabularies.
ID_TOPICS = [
    "pi",
    "gateway",
    "cron",
    "galxe",
    "layer3",
    "gbk",
    "billing",
    "dreaming",
    "recall",
    "heartbeat",
    "wallet",
    "feishu",
    "neo4j",
    "fts",
    "embedding",
    "git",
    "backup",
    "index",
    "now",
    "reflection",
    "session",
    "webhook",
    "budget",
    "gas",
    "zora",
    "layerzero",
    "arbitrum",
    "article",
    "report",
    "token",
    "model",
    "judge",
    "boot",
    "anchor",
    "memlog",
    "obsidian",
    "win11",
    "python",
    "nas",
    "proxy",
]
ID_ASPECTS = [
    "setup",
    "port",
    "timeout",
    "retry",
    "deadline",
    "encoding",
    "limit",
    "budget",
    "lock",
    "schedule",
    "path",
    "version",
    "owner",
    "review",
    "filter",
    "quota",
    "window",
    "format",
    "rollback",
    "threshold",
    "cache",
    "secret",
    "alert",
    "dedupe",
    "restart",
    "upgrade",
    "expiry",
    "fallback",
    "policy",
    "naming",
]
ID_QUALIFIERS = [
    "rule",
    "note",
    "fix",
    "check",
    "default",
    "v2",
    "daily",
    "weekly",
    "night",
    "2026",
    "main",
    "old",
    "new",
    "hard",
    "soft",
    "safe",
]
CJK_IDS = [
    "网关重启",
    "码页",
    "赏金截止",
    "空投资格",
    "夜间对账",
    "日报格式",
    "账单上限",
    "钱包确认",
    "心跳行数",
    "索引刷新",
]
CODENAMES = [
    "kestrel",
    "heron",
    "otter",
    "lynx",
    "marten",
    "osprey",
    "plover",
    "wren",
    "ibis",
    "stoat",
    "tern",
    "vole",
    "egret",
    "finch",
    "gannet",
    "hoopoe",
    "jackdaw",
    "kite",
    "lapwing",
    "merlin",
    "nuthatch",
    "oriole",
    "petrel",
    "quail",
    "rook",
    "shrike",
    "teal",
    "umbra",
    "vireo",
    "warbler",
    "xerus",
    "yak",
    "zebu",
    "auk",
    "bittern",
    "curlew",
    "dunlin",
    "eider",
    "fulmar",
    "godwit",
]
PROJECT_THINGS = {
    "radar": "雷达",
    "diary": "日记",
    "digest": "摘要",
    "tracker": "追踪表",
    "wiki": "知识库",
    "bot": "机器人",
    "dashboard": "看板",
    "crawler": "爬虫",
    "ledger": "账本",
    "coach": "教练",
    "brief": "简报",
    "scout": "侦察",
    "archive": "归档计划",
    "pipeline": "管线",
    "planner": "计划器",
    "monitor": "监控",
    "report": "报表",
    "notes": "笔记",
    "sync": "同步",
    "lab": "实验室",
}
CLOSED_STATUSES = ["done", "archived", "已完成", "归档", "done (2026-10-30)"]

TEMPLATES = [
    lambda r, n: (
        f"{r.choice(AGENTS)} 在 {r.randint(0, 23):02d}:{r.randint(0, 59):02d} 跑"
        f"{r.choice(TASKS_CN)}时{r.choice(PROBLEMS_CN)}，后来{r.choice(FIXES_CN)}"
    ),
    lambda r, n: (
        f"{r.choice(TOOLS)} 的{r.choice(SETTINGS)}改成 {r.choice(VALUES)} 后"
        f"{r.choice(EFFECTS_CN)}，已观察 {n} 天"
    ),
    lambda r, n: (
        f"{r.choice(PREF_WHEN)}主人{r.choice(PREF_VERBS)}{r.choice(PREF_OBJS)}，"
        f"{r.choice(PREF_REASONS)}（第 {n} 次提到）"
    ),
    lambda r, n: (
        f"{r.choice(PLATFORMS)} 的{r.choice(TASK_KINDS)}任务 #{r.randint(1000, 9999)}"
        f"：{r.choice(OBSERVATIONS_CN)}，{r.choice(FIXES_CN)}"
    ),
    lambda r, n: (
        f"{r.choice(PLACES_CN)}的{r.choice(SERVICES)}用{r.choice(PATHS)}，"
        f"{r.choice(CAVEATS_CN)}，{r.choice(EFFECTS_CN)}"
    ),
    lambda r, n: (
        f"遇到{r.choice(SYMPTOMS_CN)}先查{r.choice(CHECKS_CN)}，多半是"
        f"{r.choice(CAUSES_CN)}，{r.choice(FIXES_CN)}"
    ),
    lambda r, n: (
        f"{r.choice(AGENTS)} should {r.choice(ACTIONS_EN)} before "
        f"{r.choice(EVENTS_EN)}, otherwise {r.choice(CONSEQUENCES_EN)} "
        f"(seen {n} times)"
    ),
    lambda r, n: (
        f"On {r.choice(PLACES_EN)}, {r.choice(SERVICES)} {r.choice(VERBS_EN)} "
        f"{r.choice(OBJECTS_EN)} every {r.randint(2, 48)} {r.choice(UNITS_EN)} — "
        f"{r.choice(CONSEQUENCES_EN)} if it stops"
    ),
    lambda r, n: (
        f"{r.choice(PLATFORMS)} {r.choice(TASK_KINDS)} #{r.randint(100, 9999)} "
        f"{r.choice(STATUS_EN)}: {r.choice(OBS_EN)}, {r.choice(EFFECTS_CN)}"
    ),
    lambda r, n: (
        f"{r.choice(TOOLS)} 升级到 {r.choice(VERSIONS)} 后{r.choice(PROBLEMS_CN)}，"
        f"记得{'，再'.join(r.sample(TODOS_CN, 2))}"
    ),
    lambda r, n: (
        f"When {r.choice(SYMPTOMS_CN)} on {r.choice(PLACES_EN)}, 先查"
        f"{r.choice(CHECKS_CN)}再{r.choice(FIXES_CN)}（{n} 号 runbook）"
    ),
    lambda r, n: (
        f"{AGENT_NAMES[r.choice(AGENTS)]}每{r.choice(WEEKDAYS)} "
        f"{r.randint(6, 23):02d}:{r.choice(['00', '15', '30', '45'])} 汇总"
        f"{r.choice(THINGS_CN)}发到{r.choice(CHANNELS_CN)}，{r.choice(PREF_REASONS)}"
    ),
]


def sentence(rng: random.Random) -> str:
    return rng.choice(TEMPLATES)(rng, rng.randint(2, 97))


def chat_sentence(rng: random.Random) -> str:
    return (
        f"{rng.choice(CHAT_SUBJECTS)} {rng.choice(CHAT_BRANDS)} 的{rng.choice(CHAT_ITEMS)}，"
        f"{rng.choice(CHAT_TAILS)}"
    )


def _d(day: date) -> str:
    return day.isoformat()


def _days_ago(n: int) -> date:
    return REVIEW_DATE - timedelta(days=n)


def _grown_date(rng: random.Random, lo: date = START_DATE, hi: date | None = None) -> date:
    """A date in [lo, hi], denser towards hi (memory grows faster lately, seed 003)."""
    hi = hi or _days_ago(1)
    span = (hi - lo).days
    return lo + timedelta(days=int(span * rng.random() ** 0.6))


# ---------------------------------------------------------------------------------------
# The model being built.


@dataclass
class AnchorSpec:
    type: str
    id: str
    added: str | None
    summary: str
    meta: list[tuple[str, str]] = field(default_factory=list)
    body: list[str] = field(default_factory=list)
    level: int = 2
    planted: str = ""  # why it exists, for the manifest

    def lines(self) -> list[str]:
        out = [f"{'#' * self.level} [{self.type}:{self.id}]"]
        if self.added is not None:
            out.append(f"Added: {self.added}")
        out.append(f"Summary: {self.summary}")
        out.extend(f"{k}: {v}" for k, v in self.meta)
        out.extend(self.body)
        out.append("---")
        return out


@dataclass
class Bullet:
    text: str  # the whole line, with its "- "
    planted: bool = False


@dataclass
class Section:
    heading: str  # the heading line, or "" for a file's top section
    bullets: list[Bullet] = field(default_factory=list)
    raw_before: list[str] = field(default_factory=list)  # lines between heading and bullets


class Builder:
    def __init__(self, out: Path, scale: float, seed: int):
        self.out = out
        self.scale = scale
        self.seed = seed
        self.rng = random.Random(seed)
        self.total_entries = max(200, round(TOP_ENTRIES * scale))
        self.manifest: dict = {
            "scale": scale,
            "seed": seed,
            "review_date": _d(REVIEW_DATE),
            "contradictions": [],
            "supersede": [],
            "supersede_excluded": [],
            "skills": [],
            "archived": [],
            "archived_excluded": [],
            "duplicates": {"chronicle": [], "fingerprint": [], "near": []},
            "dormant": [],
            "active_projects": [],
            "closed_projects": [],
            "demotion": [],
            "not_demoted": [],
            "counts": {},
            "files": {},
        }
        self.used_ids: set[str] = set()
        self.used_keys: set[str] = set()
        self.anchors: list[AnchorSpec] = []
        self.anchor_files: dict[str, list[AnchorSpec]] = {}
        self.bullet_files: dict[str, list[Section]] = {}
        self.protected_ids: set[str] = set()  # never cited / recalled at random
        self.project_keys: set[str] = set()
        self.mentions: dict[str, list[str]] = {}  # log date -> texts that must appear
        self.recalls: list[tuple[str, str, str, str]] = []
        self.log_dates: list[date] = []

    def k(self, top: float, minimum: int = 2) -> int:
        return max(minimum, round(top * self.scale))

    # -- ids ---------------------------------------------------------------------------

    def new_id(self) -> str:
        r = self.rng
        for _ in range(50):
            if r.random() < 0.03:
                cand = f"{r.choice(CJK_IDS)}-{r.randint(2, 999)}"
            else:
                cand = f"{r.choice(ID_TOPICS)}-{r.choice(ID_ASPECTS)}-{r.choice(ID_QUALIFIERS)}"
            if cand not in self.used_ids:
                self.used_ids.add(cand)
                return cand
        n = 2
        while f"{cand}-{n}" in self.used_ids:
            n += 1
        self.used_ids.add(f"{cand}-{n}")
        return f"{cand}-{n}"

    def new_key(self) -> tuple[str, str]:
        """A project key and title; no title is a substring of another (titles count as
        mentions in daily logs), no key is an anchor id."""
        r = self.rng
        for attempt in range(200):
            code, thing = r.choice(CODENAMES), r.choice(list(PROJECT_THINGS))
            extra = r.choice(CODENAMES) if attempt >= 60 else ""
            key = f"{code}-{thing}-{extra}" if extra else f"{code}-{thing}"
            if key not in self.used_keys:
                break
        else:
            n = 2
            while f"{key}-{n}" in self.used_keys:
                n += 1
            extra = str(n)
            key = f"{key}-{n}"
        self.used_keys.add(key)
        self.project_keys.add(key)
        words = [code.capitalize(), PROJECT_THINGS[thing]] + ([extra.capitalize()] if extra else [])
        return key, f"「{' '.join(words)}」"

    # -- anchors -----------------------------------------------------------------------

    def random_anchor(self, type_: str | None = None, added: date | None = None) -> AnchorSpec:
        r = self.rng
        t = (
            type_
            or r.choices(
                ["KNOWLEDGE", "FACT", "LESSON", "DECISION", "PREFERENCE", "RULE", "INFRA"],
                weights=[30, 25, 15, 10, 8, 6, 6],
            )[0]
        )
        summary = sentence(r)
        while any(w in summary.lower() for w in INCIDENT_WORDS):
            summary = sentence(r)
        meta: list[tuple[str, str]] = []
        x = r.random()
        if x < 0.15:
            meta.append(("Importance", r.choice(["low", "medium", "2", "3", "中"])))
        elif x < 0.22:
            meta.append(("Importance", r.choice(["high", "4", "5", "高"])))
        y = r.random()
        if y < 0.5:
            meta.append(("Source", r.choice(["dreaming", "extractor", "session", "heartbeat"])))
        elif y < 0.58:
            meta.append(("Source", r.choice(["owner", "主人"])))
        body = []
        if r.random() < 0.6:
            body.append(sentence(r))
        a = AnchorSpec(
            t,
            self.new_id(),
            _d(added or _grown_date(r)),
            summary,
            meta,
            body,
            level=3 if r.random() < 0.1 else 2,
        )
        return a

    def add_anchor(self, a: AnchorSpec, agent: str | None = None) -> AnchorSpec:
        agent = agent or self.rng.choice(AGENTS)
        kind = {"RULE": "rules", "INFRA": "infra", "PROJECT": "projects"}.get(a.type, "knowledge")
        base = f"memory/agents/{agent}/{kind}"
        n = 1
        while True:
            rel = f"{base}.md" if n == 1 else f"{base}-{n}.md"
            lst = self.anchor_files.setdefault(rel, [])
            if len(lst) < ANCHORS_PER_FILE:
                lst.append(a)
                break
            n += 1
        self.anchors.append(a)
        return a

    # -- bullets -----------------------------------------------------------------------

    def section(self, rel: str, heading: str) -> Section:
        secs = self.bullet_files.setdefault(rel, [])
        for s in secs:
            if s.heading == heading:
                return s
        s = Section(heading)
        secs.append(s)
        return s


# ---------------------------------------------------------------------------------------


def generate(out: Path, scale: float, seed: int = 0) -> dict:
    """Write a synthetic workspace into ``out`` (created if missing) and return a manifest
    of what was planted for each queue."""
    if scale <= 0:
        raise ValueError("scale must be positive")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    b = Builder(out, scale, seed)
    t0 = time.perf_counter()
    _plan_logs(b)
    _projects(b)
    _planted_anchors(b)
    _random_anchors(b)
    _bullets(b)
    _fragments_and_lingxi(b)
    _dedupe_random(b)
    _write_memory_files(b)
    _write_logs(b)
    _write_recalls(b)
    _write_other(b)
    b.manifest["seconds"] = round(time.perf_counter() - t0, 3)
    return b.manifest


# -- daily logs: which days exist ----------------------------------------------------------


def _plan_logs(b: Builder) -> None:
    n_logs = min(TOP_LOGS, max(12, round(TOP_LOGS * b.scale)))
    recent = [_days_ago(d) for d in range(0, 7) if d != 3]  # one day of the last 7 missing
    older_span = list(range(7, 7 + TOP_LOGS))
    want = n_logs - len(recent)
    if want >= len(older_span):
        older = older_span
    else:
        step = len(older_span) / want
        older = [older_span[int(i * step)] for i in range(want)]
    b.log_dates = sorted(recent + [_days_ago(d) for d in older])
    b.empty_log = _days_ago(1)
    b.log_lines = max(30, round(TOP_LOGS * TOP_LOG_LINES * b.scale / (n_logs - 1)))


def _mention(b: Builder, day: date, text: str) -> None:
    b.mentions.setdefault(_d(day), []).append(text)


def _log_days(b: Builder, lo: int, hi: int) -> list[date]:
    """Existing, non-empty log dates between lo and hi days before the review date."""
    return [d for d in b.log_dates if lo <= (REVIEW_DATE - d).days <= hi and d != b.empty_log]


# -- projects ----------------------------------------------------------------------------


def _projects(b: Builder) -> None:
    r = b.rng
    m = b.manifest
    n = max(8, round(TOP_PROJECTS * b.scale))
    n_dormant = b.k(126)
    n_closed = max(1, round(n * 0.15))
    b.project_files: dict[str, list[str]] = {}
    b.project_bullet_target = max(20, round(b.total_entries * 0.10))
    per_project = max(2, b.project_bullet_target // n)
    b.marker_keys: list[str] = []
    recent_days = _log_days(b, 0, 20)
    old_days = _log_days(b, 29, 200)
    for i in range(n):
        key, title = b.new_key()
        added = _grown_date(r, hi=_days_ago(35))
        if i < n_dormant:
            kind = ("never", "old", "anchor", "marker")[i % 4]
        elif i < n_dormant + n_closed:
            kind = "closed"
        else:
            kind = "active"
        if kind == "anchor":
            a = AnchorSpec(
                "PROJECT",
                key,
                _d(added),
                title,
                [("Status", "open"), ("Source", "owner")],
                [sentence(r)],
                planted="dormant",
            )
            b.add_anchor(a)
            b.protected_ids.add(key)
            m["dormant"].append(
                {
                    "key": key,
                    "title": title,
                    "source": "anchor",
                    "last_mentioned": None,
                    "days_dormant": (REVIEW_DATE - added).days,
                }
            )
            continue
        if kind == "marker":
            b.marker_keys.append(key)
            m["dormant"].append(
                {
                    "key": key,
                    "title": key,
                    "source": "marker",
                    "last_mentioned": None,
                    "days_dormant": None,
                }
            )
            continue
        status = {"closed": r.choice(CLOSED_STATUSES), "active": "active"}.get(kind, "active")
        if kind == "never" and r.random() < 0.5:
            status = r.choice(["idea", "open", "进行中"])
        lines = [
            f"# {title}",
            "",
            f"Status: {status}",
            f"Added: {_d(added)}",
            "",
            f"## 文件摘要：{sentence(r)}",
            "",
        ]
        for _ in range(per_project):
            lines.append(f"- {sentence(r)}")
        if r.random() < 0.3:
            lines.append(f"- [ ] {sentence(r)}（{_d(_grown_date(r, added))}）")
        b.project_files[f"memory/projects/{key}.md"] = lines
        if kind == "never":
            m["dormant"].append(
                {
                    "key": key,
                    "title": title,
                    "source": "file",
                    "last_mentioned": None,
                    "days_dormant": (REVIEW_DATE - added).days,
                }
            )
        elif kind == "old":
            day = r.choice(old_days)
            _mention(b, day, _mention_line(r, key, title))
            m["dormant"].append(
                {
                    "key": key,
                    "title": title,
                    "source": "file",
                    "last_mentioned": _d(day),
                    "days_dormant": (REVIEW_DATE - day).days,
                }
            )
        elif kind == "closed":
            if r.random() < 0.5:
                _mention(b, r.choice(old_days + recent_days), _mention_line(r, key, title))
            m["closed_projects"].append(key)
        else:
            if r.random() < 0.15:  # a non-hook recall of its key is a mention too
                ts = _ts(r, _days_ago(r.randint(0, 20)))
                b.recalls.append((ts, key, "search", f"{key} 进度"))
            else:
                _mention(b, r.choice(recent_days), _mention_line(r, key, title))
            if r.random() < 0.3:  # older mentions too
                _mention(b, r.choice(old_days), _mention_line(r, key, title))
            m["active_projects"].append(key)


def _mention_line(r: random.Random, key: str, title: str) -> str:
    if r.random() < 0.2:
        return f"- {title}：{r.choice(FIXES_CN)}，{r.choice(EFFECTS_CN)}"
    return r.choice(
        [
            f"- {key}：{r.choice(FIXES_CN)}，下一步{r.choice(TODOS_CN)}",
            f"- 主人问 {key} 的进度，答：{r.choice(EFFECTS_CN)}",
            f"- {key} 卡住了：{r.choice(PROBLEMS_CN)}",
        ]
    )


def _ts(r: random.Random, day: date) -> str:
    return f"{_d(day)}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}Z"


# -- planted anchors ---------------------------------------------------------------------


def _old_added(b: Builder, lo: int = 45, hi: int = 290) -> str:
    return _d(_days_ago(b.rng.randint(lo, hi)))


def _planted_anchors(b: Builder) -> None:
    r = b.rng
    m = b.manifest
    b.proposals: list[dict] = []
    b.archive_anchors: list[AnchorSpec] = []
    pid = [0]

    def proposal(
        relation: str, new: str, old: str, conf: float, reason: str, day: date | None = None
    ) -> dict:
        pid[0] += 1
        p = {
            "id": f"p-{pid[0]:05d}",
            "ts": _ts(r, day or _days_ago(r.randint(1, 80))),
            "relation": relation,
            "new": new,
            "old": old,
            "confidence": conf,
            "reason": reason,
        }
        b.proposals.append(p)
        return p

    def pair(tag: str) -> tuple[AnchorSpec, AnchorSpec]:
        t = r.choice(["KNOWLEDGE", "FACT", "PREFERENCE", "LESSON"])
        older = b.random_anchor(t, _days_ago(r.randint(60, 280)))
        newer = b.random_anchor(t, _days_ago(r.randint(2, 55)))
        older.planted = newer.planted = tag
        return older, newer

    # contradictions: marker on one side, markers on both, judge only, both
    kinds = (
        ["marker-one"] * b.k(40)
        + ["marker-both"] * b.k(40)
        + ["judge"] * b.k(60)
        + ["both"] * b.k(60)
    )
    for kind in kinds:
        a, c = pair("contradiction")
        if kind in ("marker-one", "marker-both", "both"):
            c.meta.append(("CONFLICTS-WITH", f"[[{a.id}]]"))
            if kind != "marker-one":
                a.meta.append(("CONFLICTS-WITH", f"[[{c.id}]]"))
        p = None
        if kind in ("judge", "both"):
            p = proposal(
                "contradicts",
                c.id,
                a.id,
                round(r.uniform(0.7, 0.97), 2),
                f"两条说法不一致：{sentence(r)[:24]}",
            )
        b.add_anchor(a)
        b.add_anchor(c)
        m["contradictions"].append(
            {
                "a": a.id,
                "b": c.id,
                "source": {"marker-one": "marker", "marker-both": "marker"}.get(kind, kind),
                "proposal": p["id"] if p else None,
            }
        )

    # supersede: valid proposals; some ids re-judged on a later line (the later wins)
    for i in range(b.k(150)):
        old, new = pair("supersede")
        b.add_anchor(old)
        b.add_anchor(new)
        if i % 5 == 0:
            first = proposal("complements", new.id, old.id, 0.55, "都在讲同一件事", _days_ago(40))
            p = dict(
                first,
                relation="supersedes",
                confidence=round(r.uniform(0.75, 0.95), 2),
                ts=_ts(r, _days_ago(3)),
                reason="复判：状态已经变了，旧说法过时",
            )
            b.proposals.append(p)
        else:
            p = proposal(
                "supersedes",
                new.id,
                old.id,
                round(r.uniform(0.6, 0.97), 2),
                f"新锚点更新了状态：{sentence(r)[:20]}",
            )
        m["supersede"].append({"proposal": p["id"], "new": new.id, "old": old.id})
    # excluded: old already superseded (archived), an anchor that does not exist, and a
    # supersede re-judged as complements on a later line
    for i in range(b.k(30)):
        kind = ("archived", "missing", "rejudged")[i % 3]
        old, new = pair("supersede-excluded")
        b.add_anchor(new)
        if kind == "archived":
            old.meta.append(("Superseded-By", f"[[{new.id}]] ({_d(_days_ago(30))})"))
            b.archive_anchors.append(old)
            p = proposal("supersedes", new.id, old.id, 0.9, "旧锚点已被取代")
        elif kind == "missing":  # the new side was never promoted
            ghost = f"{new.id}-draft"
            b.used_ids.add(ghost)
            p = proposal("supersedes", ghost, new.id, 0.7, "草稿锚点从未晋升")
        else:
            b.add_anchor(old)
            first = proposal("supersedes", new.id, old.id, 0.8, "看起来过时了", _days_ago(50))
            p = dict(
                first,
                relation="complements",
                ts=_ts(r, _days_ago(5)),
                reason="复判：两条互补，不是取代",
            )
            b.proposals.append(p)
        m["supersede_excluded"].append({"proposal": p["id"], "why": kind})
    # other judge output
    for _ in range(b.k(120)):
        a, c = pair("complements")
        b.add_anchor(a)
        b.add_anchor(c)
        rel = r.choice(["complements", "duplicate"])
        proposal(
            rel,
            c.id,
            a.id,
            round(r.uniform(0.5, 0.9), 2),
            "内容互补" if rel == "complements" else "几乎同一条",
        )
        _add_ref(c, "SEE-ALSO", a.id)

    # demotion: old, unimportant, rarely used (some only through the hook)
    b.demotion_ids = []
    for i in range(b.k(300)):
        a = b.random_anchor(
            r.choice(["KNOWLEDGE", "FACT", "PREFERENCE", "LESSON"]), _days_ago(r.randint(31, 280))
        )
        a.meta = [(k, v) for k, v in a.meta if k not in ("Importance", "Source")]
        if i % 3 == 0:
            a.meta.append(("Importance", r.choice(["low", "2", "medium"])))
        a.planted = "demotion"
        b.add_anchor(a)
        b.protected_ids.add(a.id)
        b.demotion_ids.append(a.id)
        if i % 3 == 1:  # one search recall inside the window
            b.recalls.append(
                (_ts(r, _days_ago(r.randint(0, 89))), a.id, "search", sentence(r)[:16])
            )
        if i % 2 == 0:  # only the hook brings it up
            for _ in range(r.randint(3, 30)):
                b.recalls.append(
                    (_ts(r, _days_ago(r.randint(0, 89))), a.id, "hook", sentence(r)[:12])
                )
        if i % 4 == 3:  # used long ago, outside the window
            b.recalls.append(
                (_ts(r, _days_ago(r.randint(91, 250))), a.id, "search", sentence(r)[:16])
            )
        m["demotion"].append(a.id)

    # important anchors that are just as unused: never demoted
    b.boot_ids: list[str] = []
    hubs: list[AnchorSpec] = []
    reasons = [
        "type",
        "owner",
        "cited",
        "incident",
        "high",
        "comment",
        "boot",
        "boot-meta",
        "no-added",
        "bad-added",
    ]
    for i in range(b.k(100, minimum=len(reasons))):
        why = reasons[i % len(reasons)]
        t = r.choice(["RULE", "INFRA"]) if why == "type" else r.choice(["KNOWLEDGE", "FACT"])
        a = b.random_anchor(t, _days_ago(r.randint(40, 280)))
        a.meta = [(k, v) for k, v in a.meta if k not in ("Importance", "Source")]
        if why == "owner":
            a.meta.append(("Source", r.choice(["owner", "主人"])))
        elif why == "cited":
            hubs.append(a)
        elif why == "incident":
            a.body.append(
                f"{r.choice(['事故复盘', 'Incident 2026-0', 'postmortem:'])}"
                f"{r.randint(1, 9)} — {sentence(r)}"
            )
        elif why == "high":
            a.meta.append(("Importance", r.choice(["high", "高", "critical", "4", "5"])))
        elif why == "comment":
            a.summary += f" <!-- importance: {r.choice([4, 5])} -->"
        elif why == "boot":
            b.boot_ids.append(a.id)
        elif why == "boot-meta":
            a.meta.append(("Boot", "yes"))
        elif why == "no-added":
            a.added = None
        elif why == "bad-added":
            a.added = r.choice(["2026-02-30", "2026-13-01", "2027-03-01"])
        a.planted = f"important:{why}"
        b.add_anchor(a)
        b.protected_ids.add(a.id)
        m["not_demoted"].append({"id": a.id, "why": why})
    for hub in hubs:  # cited by two other anchors
        for citer in r.sample(
            [x for x in b.anchors if x.planted in ("complements",)] or b.anchors, 2
        ):
            if citer is hub:
                continue
            _add_ref(citer, "SEE-ALSO", hub.id)
    for hub in hubs:
        citers = sum(1 for x in b.anchors if f"[[{hub.id}]]" in " ".join(v for _, v in x.meta))
        while citers < 2:
            extra = b.random_anchor()
            _add_ref(extra, "SEE-ALSO", hub.id)
            b.add_anchor(extra)
            citers += 1


def _add_ref(a: AnchorSpec, key: str, target: str) -> None:
    for k, (name, value) in enumerate(a.meta):
        if name == key:
            a.meta[k] = (name, f"{value}, [[{target}]]")
            return
    a.meta.append((key, f"[[{target}]]"))


def _random_anchors(b: Builder) -> None:
    r = b.rng
    target = round(b.total_entries * 0.40)
    pool = [a.id for a in b.anchors if a.id not in b.protected_ids]
    while len(b.anchors) < target:
        a = b.random_anchor()
        if pool and r.random() < 0.25:
            refs = r.sample(pool, min(len(pool), r.randint(1, 3)))
            for x in refs:
                _add_ref(a, "SEE-ALSO", x)
        b.add_anchor(a)
        pool.append(a.id)
    b.random_anchor_ids = pool
    # recalls for the anchors that are not planted: a few hot ones, a long cold tail
    n_recalls = max(60, round(TOP_RECALLS * b.scale))
    need = n_recalls - len(b.recalls)
    if need <= 0 or not pool:
        return
    weights = [1.0 / (1 + i) ** 0.8 for i in range(len(pool))]
    order = pool[:]
    r.shuffle(order)
    chosen = r.choices(order, weights=weights, k=need)
    channels = r.choices(["hook", "search", "boot", "manual"], weights=[55, 30, 10, 5], k=need)
    queries = [sentence(r)[:18] for _ in range(min(need, 2000))]
    for aid, ch in zip(chosen, channels, strict=True):
        day = _days_ago(min(int(r.expovariate(1 / 45)), 280))
        b.recalls.append((_ts(r, day), aid, ch, "" if ch == "boot" else r.choice(queries)))


# -- bullets in memory files ---------------------------------------------------------------


def _bullets(b: Builder) -> None:
    r = b.rng
    total = b.total_entries
    n_root = max(15, round(total * 0.06))
    # root MEMORY.md: identity, rules, lessons, old-generation entries, weekly promotions
    ident = b.section("MEMORY.md", "## 身份与协作")
    for agent in AGENTS:
        ident.bullets.append(
            Bullet(
                f"- {agent}（{AGENT_NAMES[agent]}）：{'、'.join(r.sample(TASKS_CN, 2))}，"
                f"{r.choice(CAVEATS_CN)}"
            )
        )
    rules = b.section("MEMORY.md", "## Rules")
    for _ in range(max(3, n_root // 20)):
        rules.bullets.append(Bullet(f"- {sentence(r)}"))
    old = b.section("MEMORY.md", "## Gateway")
    for i in range(max(3, n_root // 8)):
        trig = ", ".join(r.sample(ID_TOPICS, 2))
        text = f"- {sentence(r)} <!-- trigger: {trig} --> <!-- importance: {r.randint(1, 5)} -->"
        if (i == 0 or r.random() < 0.3) and b.manifest["active_projects"]:
            text += f" <!-- project: {r.choice(b.manifest['active_projects'])} -->"
        old.bullets.append(Bullet(text))
    for key in b.marker_keys:  # projects known only from a marker
        old.bullets.append(Bullet(f"- {sentence(r)} <!-- project: {key} -->", planted=True))
    weeks = max(2, min(20, n_root // 10))
    per_week = max(2, (n_root - 6 - len(rules.bullets) - len(old.bullets)) // weeks)
    for w in range(weeks):
        day = _days_ago(2 + 7 * (weeks - 1 - w))
        sec = b.section("MEMORY.md", f"## Promoted From Short-Term Memory ({_d(day)})")
        for _ in range(per_week):
            src = _d(day - timedelta(days=r.randint(1, 6)))
            s1 = r.randint(3, 400)
            s2 = s1 + r.randint(0, 4)
            score = r.uniform(0.35, 0.92)
            sec.bullets.append(
                Bullet(
                    f"<!-- openclaw-memory-promotion:memory:memory/{src}.md:{s1}:{s2} -->\n"
                    f"- {sentence(r)} [score={score:.3f} recalls={r.randint(1, 9)} "
                    f"avg={score * r.uniform(0.6, 0.95):.3f} source=memory/{src}.md:{s1}-{s2}]"
                )
            )

    # knowledge files: lessons/, decisions/, preferences/
    n_kn = max(30, round(total * 0.36))
    b.knowledge_files: list[str] = []
    # a lessons file the Windows workstation wrote: GBK, CRLF (written in _write_memory_files)
    b.gbk_rel = "memory/lessons/windows-codepage.md"
    gbk = b.section(b.gbk_rel, "")
    gbk.raw_before = ["# Windows 码页", "", "## 文件摘要：工作站上 Python 默认 GBK 的坑", ""]
    gbk.bullets = [Bullet(f"- {t}") for t in GBK_LESSONS] + [
        Bullet(f"- {sentence(r)}") for _ in range(max(1, n_kn // 100))
    ]
    b.knowledge_files.append(b.gbk_rel)
    made = len(gbk.bullets)
    while made < n_kn:
        kind = r.choices(["lessons", "decisions", "preferences"], weights=[5, 3, 2])[0]
        slug = f"{r.choice(ID_TOPICS)}-{r.choice(ID_ASPECTS)}"
        if kind == "decisions":  # a name starting with a date would be a daily log
            slug = f"{slug}-{_d(_grown_date(r))[:7]}"
        rel = f"memory/{kind}/{slug}.md"
        if rel in b.bullet_files:
            continue
        n = min(n_kn - made, r.randint(8, 40))
        title = b.section(rel, "")
        title.raw_before = [f"# {slug}", "", f"## 文件摘要：{sentence(r)}", ""]
        for _ in range(n):
            stamp = f"（{_d(_grown_date(r))}）" if r.random() < 0.4 else ""
            title.bullets.append(Bullet(f"- {sentence(r)}{stamp}"))
        b.knowledge_files.append(rel)
        made += n

    # planted duplicates: fingerprint groups within one section, near pairs within a file
    m = b.manifest["duplicates"]
    candidates = [rel for rel in b.knowledge_files if rel != b.gbk_rel] + ["MEMORY.md"]
    for i in range(b.k(200)):
        rel = r.choice(candidates)
        sec = r.choice([s for s in b.bullet_files[rel] if s.bullets] or b.bullet_files[rel])
        if sec.heading.startswith("## Promoted") or sec.heading == "## 身份与协作":
            sec = b.section(rel, "## 重要教训") if rel == "MEMORY.md" else sec
        core = sentence(r)
        texts = []
        for _j in range(2 if i % 4 else 3):
            stamp = r.choice(
                [
                    f"（{_d(_grown_date(r))}）",
                    f" ({_d(_grown_date(r))})",
                    f"（{_d(_grown_date(r))} 自动沉淀）",
                ]
            )
            texts.append(f"- {core}{stamp}")
        for t in texts:
            _insert(r, sec, Bullet(t, planted=True))
        m["fingerprint"].append({"file": rel, "section": sec.heading, "texts": texts})
    for _ in range(b.k(200)):
        rel = r.choice(candidates)
        sec = r.choice([s for s in b.bullet_files[rel] if s.bullets] or b.bullet_files[rel])
        if sec.heading.startswith("## Promoted") or sec.heading == "## 身份与协作":
            sec = b.section(rel, "## 重要教训")
        core = sentence(r)
        while len(core) < 24:
            core = sentence(r)
        variant = _near_variant(r, core)
        texts = [f"- {core}", f"- {variant}"]
        sec2 = r.choice([s for s in b.bullet_files[rel] if s.bullets] or [sec])
        if sec2.heading.startswith("## Promoted") or sec2.heading == "## 身份与协作":
            sec2 = sec
        _insert(r, sec, Bullet(texts[0], planted=True))
        _insert(r, sec2, Bullet(texts[1], planted=True))
        m["near"].append(
            {
                "file": rel,
                "texts": texts,
                "ratio": round(fuzz.ratio(normalize(texts[0]), normalize(texts[1])), 1),
            }
        )


def _insert(r: random.Random, sec: Section, bullet: Bullet) -> None:
    sec.bullets.insert(r.randint(0, len(sec.bullets)), bullet)


_SWAPS = [
    ("之后", "后"),
    ("后", "之后"),
    ("不然", "否则"),
    ("先", "首先"),
    ("要求", "希望"),
    ("已观察", "观察了"),
    ("的", ""),
    ("了", ""),
    ("时", "的时候"),
    ("should", "must"),
    ("before", "prior to"),
    ("otherwise", "or else"),
    ("every", "each"),
]
_CJK = re.compile(r"[\u4e00-\u9fff]")


def _near_variant(r: random.Random, core: str) -> str:
    """A small natural edit (a synonym, a dropped particle, a typo) between positions 8
    and 30: a different fingerprint and confirmed key, the same first and last 8
    characters, ratio >= 90."""
    lo, hi = 8, min(30, len(core) - 9)
    edits: list[str] = []
    typos: list[str] = []
    for old, new in _SWAPS:
        pos = core.find(old, lo)
        while 0 <= pos <= hi:
            edits.append(core[:pos] + new + core[pos + len(old) :])
            pos = core.find(old, pos + 1)
    for pos in range(lo, hi):  # typos: two adjacent letters swapped
        a, b = core[pos], core[pos + 1]
        if a.isascii() and b.isascii() and a.isalpha() and b.isalpha() and a != b:
            typos.append(core[:pos] + b + a + core[pos + 2 :])
    r.shuffle(edits)
    r.shuffle(typos)
    n1 = normalize(core)
    for v in edits + typos:
        n2 = normalize(v)
        if (
            fingerprint(n1) != fingerprint(n2)
            and confirmed_key(n1) != confirmed_key(n2)
            and fuzz.ratio(n1, n2) >= 90
        ):
            return v
    for _ in range(100):  # no natural edit fits: repeat a CJK character (a typing slip)
        pos = r.randint(lo, max(lo, hi))
        if _CJK.match(core[pos]):
            v = core[: pos + 1] + core[pos:]
            if fuzz.ratio(n1, normalize(v)) >= 90 and confirmed_key(n1) != confirmed_key(
                normalize(v)
            ):
                return v
    return core[:lo] + core[lo] + core[lo:]


# -- fragments and the Lingxi MEMORY.md ---------------------------------------------------


def _fragments_and_lingxi(b: Builder) -> None:
    r = b.rng
    m = b.manifest
    n_frag = max(40, round(TOP_FRAGMENTS * b.scale))
    rows: list[tuple] = []
    lingxi_budget = max(10, round(b.total_entries * 0.04))
    sections = ["### 偏好", "### 事实", "### 规则", "### 习惯", "### 人际"]
    cat_of = {
        "### 偏好": "preference",
        "### 事实": "fact",
        "### 规则": "rule",
        "### 习惯": "fact",
        "### 人际": "fact",
    }
    rel = "memory/MEMORY.md"
    secs = {h: b.section(rel, h) for h in sections}
    b.lingxi_module_of = {
        "### 偏好": "## 模块一：主人画像",
        "### 事实": "## 模块一：主人画像",
        "### 习惯": "## 模块一：主人画像",
        "### 规则": "## 模块二：工作记忆",
        "### 人际": "## 模块二：工作记忆",
    }

    def row(content, status, last_seen, first_seen, category, emotion, skill=0, mentions=None):
        fid = len(rows) + 1
        day = first_seen[:10]
        rows.append(
            (
                fid,
                day,
                category,
                r.choice(THINGS_CN),
                content,
                sentence(r)[:30],
                emotion,
                day,
                hashlib.sha256(f"{fid}:{content}".encode()).hexdigest()[:16],
                f"{day}T03:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}+08:00",
                status,
                mentions if mentions is not None else r.randint(1, 9),
                first_seen,
                last_seen,
                round(r.uniform(0.3, 0.97), 2),
                skill,
            )
        )
        return fid

    def seen(day: date) -> str:
        """last_seen written as a date, a timestamp or a space-separated timestamp."""
        x = r.random()
        if x < 0.5:
            return _d(day)
        if x < 0.8:
            return f"{_d(day)}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:00+08:00"
        return f"{_d(day)} {r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}"

    # confirmed fragments settle into memory/MEMORY.md
    for _ in range(lingxi_budget):
        h = r.choice(sections)
        content = sentence(r)
        emotion = r.choice(EMOTIONS)
        first = _grown_date(r)
        row(content, "confirmed", seen(_grown_date(r, first)), _d(first), cat_of[h], emotion)
        secs[h].bullets.append(Bullet(f"- {content}（{emotion}）（{_d(first)} 自动沉淀）"))
    # planted fingerprint duplicates among the settled fragments (written twice)
    for _ in range(max(1, b.k(40) // 2)):
        h = r.choice(sections)
        content = sentence(r)
        emotion = r.choice(EMOTIONS)
        texts = [f"- {content}（{emotion}）（{_d(_grown_date(r))} 自动沉淀）" for _ in range(2)]
        if texts[0] == texts[1]:
            texts[1] = texts[1].replace("自动沉淀", " 自动沉淀")
        for t in texts:
            _insert(r, secs[h], Bullet(t, planted=True))
        m["duplicates"]["fingerprint"].append({"file": rel, "section": h, "texts": texts})

    # archived fragments whose content is still in a memory file (the archived queue)
    pool = [
        (rel_, s, bl)
        for rel_, ss in b.bullet_files.items()
        for s in ss
        if s.heading != "## 身份与协作"
        for bl in s.bullets
        if not bl.planted and "\n" not in bl.text
    ]
    picks = r.sample(pool, min(len(pool), b.k(300)))
    for i, (frel, _s, bl) in enumerate(picks):
        core = _PAREN_START.split(normalize(bl.text), 1)[0].strip()
        if len(core) < 16:
            continue
        content = core
        if i % 3 == 2 and len(core) >= 18:  # the entry was edited since: a fuzzy match
            for _ in range(5):
                v = _near_variant(r, core)
                if len(v) <= len(core):  # never longer than the entry it is found in
                    content = v
                    break
        day = _days_ago(r.randint(30, 200))
        fid = row(
            content,
            "archived",
            seen(day),
            _d(_grown_date(r, hi=day)),
            "fact",
            r.choice(EMOTIONS),
            mentions=1,
        )
        m["archived"].append(
            {"fragment": fid, "file": frel, "entry": bl.text, "days": (REVIEW_DATE - day).days}
        )
        bl.planted = True
    # archived too recently, or never settled: not in the queue
    picks = r.sample(pool, min(len(pool), b.k(60)))
    for _frel, _s, bl in picks:
        if bl.planted:
            continue
        day = _days_ago(r.randint(1, 29))
        fid = row(
            normalize(bl.text),
            "archived",
            seen(day),
            _d(_grown_date(r, hi=day)),
            "fact",
            r.choice(EMOTIONS),
            mentions=1,
        )
        m["archived_excluded"].append({"fragment": fid, "why": "recent"})
        bl.planted = True
    # the rest: chit-chat that aged out, and fresh candidates / confirmed ones
    skill_rows = []
    while len(rows) < n_frag:
        x = r.random()
        if x < 0.15:
            day = _days_ago(r.randint(30, 250))
            row(
                chat_sentence(r),
                "archived",
                seen(day),
                _d(_grown_date(r, hi=day)),
                "fact",
                r.choice(EMOTIONS),
                mentions=1,
            )
        elif x < 0.60:
            first = _grown_date(r, _days_ago(60))
            skill = 1 if r.random() < 0.03 else 0
            fid = row(
                sentence(r),
                "candidate",
                seen(_grown_date(r, first)),
                _d(first),
                r.choice(["fact", "preference", "rule"]),
                r.choice(EMOTIONS),
                skill,
            )
            if skill:
                skill_rows.append(fid)
        else:
            first = _grown_date(r)
            row(
                sentence(r),
                "confirmed",
                seen(_grown_date(r, first)),
                _d(first),
                r.choice(["fact", "preference", "rule"]),
                r.choice(EMOTIONS),
            )
    b.fragment_rows = rows

    # chronicle rows; some dates twice or three times
    n_days = max(6, round(300 * b.scale))
    days = sorted({_grown_date(r, START_DATE, _days_ago(1)) for _ in range(n_days * 2)})
    days = days[:n_days] if len(days) > n_days else days
    dup_days = set(r.sample(days, min(len(days), b.k(30))))
    chron: list[str] = []
    for d in days:
        events = [_event(r) for _ in range(r.randint(1, 3))]
        note = r.choice(["", "", "", "主人在场", "断线恢复", "补跑"])
        chron.append(f"| {_d(d)} | {'；'.join(events)} | {note} |")
        if d in dup_days:
            for _ in range(r.randint(1, 2)):
                extra = [r.choice(events)] + [_event(r) for _ in range(r.randint(0, 2))]
                chron.append(f"| {_d(d)} | {'；'.join(extra)} | |")
            m["duplicates"]["chronicle"].append({"file": rel, "date": _d(d)})
    b.chronicle = chron


_PAREN_START = re.compile(r"[（(]")
_COMMENTS_TAIL = re.compile(r"(?:\s*<!--.*?-->)+$")
_LINGXI_TAIL = re.compile(r"（[^（）]*）（\d{4}-\d{2}-\d{2} 自动沉淀）$")


def _event(r: random.Random) -> str:
    return r.choice(
        [
            f"{r.choice(TOOLS)} 升级到 {r.choice(VERSIONS)}",
            f"{r.choice(TASKS_CN)}{r.choice(PROBLEMS_CN)}",
            f"{r.choice(PLATFORMS)} #{r.randint(1000, 9999)} {r.choice(['领取', '提交', '被拒'])}",
            f"{r.choice(AGENTS)} {r.choice(FIXES_CN)}",
            f"主人{r.choice(PREF_VERBS)}{r.choice(PREF_OBJS)}",
        ]
    )


# -- keep random entries apart -------------------------------------------------------------


def _dedupe_random(b: Builder) -> None:
    """Replace random bullets that happen to be near or fingerprint duplicates of another
    bullet in the same file, so that only the planted duplicates are found."""
    r = b.rng
    for secs in b.bullet_files.values():
        flat = [(s, i) for s in secs for i in range(len(s.bullets))]
        if len(flat) < 2:
            continue
        planted = [s.bullets[i].planted for s, i in flat]
        norms = [normalize(s.bullets[i].text.split("\n")[-1]) for s, i in flat]
        check = list(range(len(flat)))  # first every bullet, then only the replaced ones
        for _round in range(20):
            bad: set[int] = set()
            groups: dict[tuple[int, str], list[int]] = {}
            for k, ((s, _i), n) in enumerate(zip(flat, norms, strict=True)):
                groups.setdefault((id(s), fingerprint(n)), []).append(k)
            for members in groups.values():
                if len(members) > 1:
                    rnd = [k for k in members if not planted[k]]
                    bad.update(rnd[1:] if len(rnd) == len(members) else rnd)
            scores = process.cdist(
                [norms[k] for k in check],
                norms,
                scorer=fuzz.ratio,
                score_cutoff=90,
                dtype="uint8",
                workers=-1,
            )
            for cx, y in zip(*scores.nonzero(), strict=True):
                x, y = sorted((check[int(cx)], int(y)))
                if x == y or len(norms[x]) < 8 or len(norms[y]) < 8:
                    continue
                if not planted[y]:
                    bad.add(y)
                elif not planted[x]:
                    bad.add(x)
            if not bad:
                break
            for k in bad:
                s, i = flat[k]
                old = s.bullets[i].text
                if "\n" in old:  # an OpenClaw promotion: keep the marker and the tail
                    head, line = old.split("\n", 1)
                    tail = line[line.rfind(" [score=") :]
                    s.bullets[i] = Bullet(f"{head}\n- {sentence(r)}{tail}")
                elif (m := _LINGXI_TAIL.search(old)) is not None:
                    s.bullets[i] = Bullet(f"- {sentence(r)}{m.group(0)}")
                else:  # keep trailing comments (trigger, importance, project markers)
                    tail = _COMMENTS_TAIL.search(old)
                    s.bullets[i] = Bullet(f"- {sentence(r)}{tail.group(0) if tail else ''}")
                norms[k] = normalize(s.bullets[i].text.split("\n")[-1])
            check = sorted(bad)


# -- writing ---------------------------------------------------------------------------------


def _write(
    b: Builder, rel: str, lines: list[str], *, encoding: str = "utf-8", newline: str = "\n"
) -> None:
    p = b.out / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    data = (newline.join(lines) + newline).encode(encoding)
    p.write_bytes(data)
    b.manifest["files"][rel] = len(data)


def _write_memory_files(b: Builder) -> None:
    r = b.rng
    m = b.manifest
    counts = {
        "bullets": 0,
        "anchors": len(b.anchors),
        "chronicle_rows": len(b.chronicle),
        "memory_files": 0,
    }

    # root MEMORY.md
    lines = [
        "# MEMORY.md — 长期记忆",
        "",
        "> 索引页：规则看 memory/agents/*/rules.md，基础设施看 infra.md，踩坑看 memory/lessons/。",
        "",
    ]
    for s in b.bullet_files.get("MEMORY.md", []):
        lines += [s.heading, ""]
        for bl in s.bullets:
            lines += bl.text.split("\n")
            if s.heading.startswith("## Promoted"):
                lines.append("")
            counts["bullets"] += 1
        if not s.heading.startswith("## Promoted"):
            lines.append("")
    _write(b, "MEMORY.md", lines)
    counts["memory_files"] += 1

    # Lingxi memory/MEMORY.md
    lines = [
        "# 小满的长期记忆（灵犀 dreaming 自动沉淀）",
        "",
        f"> 最后更新：{_d(_days_ago(1))}",
        "",
    ]
    module = None
    for s in sorted(
        b.bullet_files.get("memory/MEMORY.md", []),
        key=lambda s: b.lingxi_module_of.get(s.heading, ""),
    ):
        mod = b.lingxi_module_of.get(s.heading)
        if mod and mod != module:
            lines += [mod, ""]
            module = mod
        lines += [s.heading] + [bl.text for bl in s.bullets] + [""]
        counts["bullets"] += len(s.bullets)
    lines += ["### 编年史", "| 日期 | 事件 | 备注 |", "|---|---|---|"] + b.chronicle
    _write(b, "memory/MEMORY.md", lines)
    counts["memory_files"] += 1

    # knowledge files, one of them GBK with CRLF
    for rel in b.knowledge_files:
        lines = []
        for s in b.bullet_files[rel]:
            if s.heading:
                lines += ["", s.heading]
            lines += s.raw_before + [bl.text for bl in s.bullets]
            counts["bullets"] += len(s.bullets)
        if rel == b.gbk_rel:
            _write(b, rel, lines, encoding="gbk", newline="\r\n")
            m["gbk_file"] = rel
        else:
            _write(b, rel, lines)
        counts["memory_files"] += 1

    # project files
    for rel, lines in b.project_files.items():
        _write(b, rel, lines)
        counts["bullets"] += sum(1 for ln in lines if ln.startswith("- "))
        counts["memory_files"] += 1

    # anchor files
    for rel, anchors in b.anchor_files.items():
        agent = rel.split("/")[2]
        kind = rel.rsplit("/", 1)[1].removesuffix(".md")
        lines = [f"# {AGENT_NAMES[agent]} — {kind}", ""]
        for a in anchors:
            lines += a.lines() + [""]
        _write(b, rel, lines)
        counts["memory_files"] += 1

    # archive: anchors superseded earlier
    lines = ["# Superseded", ""]
    for a in b.archive_anchors:
        lines += a.lines() + [""]
    _write(b, "memory/archive/superseded.md", lines)

    # boot files at the root list anchors as [[id]]
    per_agent: dict[str, list[str]] = {}
    for aid in b.boot_ids:
        per_agent.setdefault(r.choice(AGENTS), []).append(aid)
    for agent, ids in sorted(per_agent.items()):
        _write(
            b,
            f"{agent}.boot.md",
            [f"# {AGENT_NAMES[agent]} boot", ""] + [f"- [[{x}]]" for x in ids],
        )
    counts["entries"] = counts["bullets"] + counts["anchors"] + counts["chronicle_rows"]
    m["counts"].update(counts)


def _write_logs(b: Builder) -> None:
    r = b.rng
    pool = [sentence(r) for _ in range(min(4000, max(200, b.log_lines * 2)))]
    total_lines = 0
    for day in b.log_dates:
        rel = f"memory/{_d(day)}.md"
        if day == b.empty_log:
            _write_empty(b, rel)
            continue
        lines = [f"# {_d(day)}", ""]
        must = list(b.mentions.get(_d(day), []))
        light = r.random() < 0.3 or day == _days_ago(2)
        light_at = b.log_lines // 2 if light else -1
        clock = r.randint(0, 60)
        while len(lines) < b.log_lines or must:
            clock = min(1439, clock + r.randint(0, 7))
            hh, mm = divmod(clock, 60)
            if r.random() < 0.5:
                lines.append(f"### {hh:02d}:{mm:02d} — {r.choice(LOG_TITLES)}")
            else:
                lines.append(f"### {r.choice(AGENTS)} ({hh:02d}:{mm:02d})")
            for _ in range(r.randint(1, 5)):
                lines.append(f"- {r.choice(pool)}")
            if must and r.random() < 0.5:
                lines.append(must.pop())
            lines.append("")
            if light_at >= 0 and len(lines) >= light_at:
                lines += ["## 浅度睡眠", "", "<!-- openclaw:dreaming:light:start -->"]
                for _ in range(r.randint(1, 3)):
                    lines += [
                        f"- Candidate: {r.choice(pool)}",
                        f"  - confidence: {r.uniform(0.4, 0.9):.2f}",
                        f"  - evidence: memory/.dreams/session-corpus/{_d(day)}.txt:"
                        f"{r.randint(1, 40)}-{r.randint(41, 80)}",
                        f"  - recalls: {r.randint(1, 6)}",
                        "  - status: staged",
                    ]
                lines += ["<!-- openclaw:dreaming:light:end -->", ""]
                light_at = -1
        _write(b, rel, lines)
        total_lines += len(lines)
    # reflection-prep files (dated logs with a slug)
    for day in b.log_dates[-3:-1]:
        if day == b.empty_log:
            continue
        rel = f"memory/{_d(day)}-reflection-prep.md"
        _write(
            b,
            rel,
            [
                f"# {_d(day)} 反思预备素材",
                "",
                "## 遗漏补充",
                f"- {r.choice(pool)}",
                f"- {r.choice(pool)}",
                "",
                "## 未完成 / 阻塞",
                f"- {r.choice(pool)}",
            ],
        )
    b.manifest["counts"]["daily_logs"] = len(b.log_dates)
    b.manifest["counts"]["daily_log_lines"] = total_lines
    b.manifest["missing_log"] = _d(_days_ago(3))
    b.manifest["empty_log"] = _d(b.empty_log)


def _write_empty(b: Builder, rel: str) -> None:
    p = b.out / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(b"")
    b.manifest["files"][rel] = 0


def _write_recalls(b: Builder) -> None:
    recalls = sorted(b.recalls)
    p = b.out / "memory/recall_log.jsonl"
    p.parent.mkdir(parents=True, exist_ok=True)
    dumps = json.dumps
    data = "".join(
        dumps({"ts": ts, "id": i, "channel": ch, "query": q}, ensure_ascii=False) + "\n"
        for ts, i, ch, q in recalls
    ).encode("utf-8")
    p.write_bytes(data)
    b.manifest["files"]["memory/recall_log.jsonl"] = len(data)
    b.manifest["counts"]["recalls"] = len(recalls)


def _write_other(b: Builder) -> None:
    r = b.rng
    m = b.manifest
    # dreams.db, in one transaction
    db = b.out / "memory/knowledge/dreams.db"
    db.parent.mkdir(parents=True, exist_ok=True)
    if db.exists():
        db.unlink()
    con = sqlite3.connect(db)
    try:
        con.execute(
            "CREATE TABLE dreams (id INTEGER PRIMARY KEY, date TEXT NOT NULL, category TEXT, "
            "theme TEXT, content TEXT NOT NULL, context TEXT, emotion TEXT, source_date TEXT, "
            "content_hash TEXT, created_at TEXT, status TEXT NOT NULL DEFAULT 'candidate', "
            "mention_count INTEGER NOT NULL DEFAULT 1, first_seen TEXT, last_seen TEXT, "
            "confidence REAL, skill_candidate INTEGER NOT NULL DEFAULT 0)"
        )
        con.executemany(f"INSERT INTO dreams VALUES ({', '.join('?' * 16)})", b.fragment_rows)
        con.execute("CREATE INDEX idx_dreams_status ON dreams(status)")
        con.commit()
    finally:
        con.close()
    m["files"]["memory/knowledge/dreams.db"] = db.stat().st_size
    m["counts"]["fragments"] = len(b.fragment_rows)

    # judge proposals
    props = b.proposals[:]
    lines = [json.dumps(p, ensure_ascii=False) for p in props]
    _write(b, "memory/review/proposals.jsonl", lines)
    m["counts"]["proposals"] = len({p["id"] for p in props})
    m["counts"]["proposal_lines"] = len(props)

    # skill candidates
    cands = []
    for i in range(b.k(40)):
        theme = r.choice(
            [
                f"{r.choice(TASKS_CN)}自动化",
                f"{r.choice(PLATFORMS)} 截止检查",
                f"{r.choice(TOOLS)} 巡检",
                f"{r.choice(THINGS_CN)}推送",
            ]
        )
        theme = f"{theme} {i + 1}" if any(c["theme"] == theme for c in cands) else theme
        cands.append(
            {
                "theme": theme,
                "content": sentence(r),
                "count": r.randint(3, 12),
                "reason": f"最近 {r.randint(2, 4)} 周重复出现 {r.randint(3, 12)} 次",
            }
        )
    doc = {"updated_at": f"{_d(_days_ago(1))}T03:06:02+08:00", "candidates": cands}
    p = b.out / "memory/skill_candidates.json"
    data = (json.dumps(doc, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    p.write_bytes(data)
    m["files"]["memory/skill_candidates.json"] = len(data)
    m["skills"] = [c["theme"] for c in cands]

    # OpenClaw short-term recall state
    entries = {}
    for day in b.log_dates[-min(len(b.log_dates), 30) :]:
        for _ in range(r.randint(1, 4)):
            s1 = r.randint(3, max(4, b.log_lines - 10))
            s2 = s1 + r.randint(0, 6)
            key = f"memory:memory/{_d(day)}.md:{s1}:{s2}"
            n = r.randint(1, 8)
            days = sorted({_d(day + timedelta(days=r.randint(0, 5))) for _ in range(n)})
            e = {
                "key": key,
                "path": f"memory/{_d(day)}.md",
                "startLine": s1,
                "endLine": s2,
                "snippet": sentence(r),
                "recallCount": n,
                "dailyCount": len(days),
                "totalScore": round(n * r.uniform(0.4, 0.8), 3),
                "maxScore": round(r.uniform(0.5, 0.95), 3),
                "firstRecalledAt": f"{days[0]}T03:00:00Z",
                "lastRecalledAt": f"{days[-1]}T03:00:00Z",
                "queryHashes": [
                    hashlib.sha1(f"{key}{k}".encode()).hexdigest()[:8] for k in range(min(n, 4))
                ],
                "recallDays": days,
                "conceptTags": r.sample(ID_TOPICS, 2),
            }
            if r.random() < 0.1:
                e["promotedAt"] = f"{days[-1]}T03:04:00Z"
            entries[key] = e
    doc = {"version": 1, "updatedAt": f"{_d(_days_ago(1))}T03:05:51Z", "entries": entries}
    p = b.out / "memory/.dreams/short-term-recall.json"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(doc, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")

    # DREAMS.md with a diary block
    lines = ["# Dream Diary", "", "## 梦境日记", "", "<!-- openclaw:dreaming:diary:start -->"]
    for back in range(1, 8):
        day = _days_ago(back)
        lines += [
            f"### {_d(day)} 03:0{back}",
            "",
            f"浅睡扫描了 {r.randint(2, 9)} 个日志，REM 提出 {r.randint(0, 12)} 个候选，"
            f"深睡晋升 {r.randint(0, 4)} 个。",
            "",
        ]
    lines += ["<!-- openclaw:dreaming:diary:end -->"]
    _write(b, "DREAMS.md", lines)

    # NOW.md, HEARTBEAT.md, INDEX.md
    todos = []
    for _ in range(8):
        day = _days_ago(r.choice([0, 1, 2, 4, 6, 12, 30]))
        box = "x" if r.random() < 0.25 else " "
        todos.append(f"- [{box}] {r.choice(TODOS_CN)}：{r.choice(SERVICES)}（{_d(day)}）")
    _write(
        b,
        "NOW.md",
        ["# NOW", "", f"{_d(_days_ago(1))} 23:40 更新", "", "**待办**:"]
        + todos
        + ["", "**进行中**:", f"- {sentence(r)}"],
    )
    _write(
        b,
        "HEARTBEAT.md",
        [
            "# HEARTBEAT",
            "",
            "## 活跃任务",
            "- [x] 检查飞书未读（08:00 完成）",
            "- [ ] 更新赏金追踪表（进行中）",
            "",
            "## 当前状态",
            f"- 本月 API 花费：{r.randint(20, 59)} / 60 美元",
            "- dreaming：正常",
        ],
    )
    idx = ["# INDEX", "", f"{_d(_days_ago(1))} 23:15 自动生成，请勿手改。", ""]
    for kind in ("lessons", "decisions", "preferences", "projects"):
        idx.append(f"## {kind}/")
        for rel in sorted(x for x in m["files"] if x.startswith(f"memory/{kind}/"))[:50]:
            idx.append(f"- {rel.removeprefix('memory/')}")
        idx.append("")
    _write(b, "INDEX.md", idx)
    _write(
        b,
        "memreview.yaml",
        [
            "# A synthetic workspace (memreview.synth); the review date is",
            "# pinned so that its queues are the same on every run.",
            f"review_date: {_d(REVIEW_DATE)}",
        ],
    )
    m["counts"]["projects"] = (
        len(b.project_files) + sum(1 for a in b.anchors if a.type == "PROJECT") + len(b.marker_keys)
    )
    m["counts"]["skill_candidates"] = len(cands)


# ---------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m memreview.synth", description="Write a synthetic memreview workspace."
    )
    ap.add_argument("out", type=Path, help="output directory (created; must be empty)")
    ap.add_argument(
        "--scale",
        type=float,
        default=0.1,
        help="1.0 = 25,000 entries, 90 logs of 2,000 lines (default 0.1)",
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--manifest", type=Path, help="also write the manifest as JSON here")
    args = ap.parse_args(argv)
    if args.scale <= 0:
        print("synth: --scale must be positive", file=sys.stderr)
        return 2
    if args.out.exists() and (not args.out.is_dir() or any(args.out.iterdir())):
        print(f"synth: {args.out} exists and is not an empty directory", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    manifest = generate(args.out, args.scale, args.seed)
    took = time.perf_counter() - t0
    if args.manifest:
        args.manifest.write_text(
            json.dumps(manifest, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )
    c = manifest["counts"]
    size = sum(manifest["files"].values())
    print(
        f"wrote {args.out} in {took:.2f} s: {c['entries']} entries ({c['anchors']} anchors), "
        f"{c['daily_logs']} daily logs ({c['daily_log_lines']} lines), {c['fragments']} "
        f"fragments, {c['recalls']} recalls, {c['proposals']} proposals, {c['projects']} "
        f"projects, {size / 1e6:.1f} MB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
