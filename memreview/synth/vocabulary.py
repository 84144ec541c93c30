"""The synthetic fleet's vocabulary: word lists and the sentence templates built from them.

Entries are built from several independent slots, so two random entries differ in most of
their characters (rapidfuzz ratio well below 90). A data table: long on purpose.
"""

from __future__ import annotations

import random

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


# Words that make an anchor an incident (never demoted): random summaries avoid them.
INCIDENT_WORDS = ("incident", "事故", "postmortem", "复盘")


def sentence(rng: random.Random) -> str:
    """One random entry text from one of the templates."""
    return rng.choice(TEMPLATES)(rng, rng.randint(2, 97))


def chat_sentence(rng: random.Random) -> str:
    """Chit-chat that never reached a memory file (its words are used nowhere else)."""
    return (
        f"{rng.choice(CHAT_SUBJECTS)} {rng.choice(CHAT_BRANDS)} 的{rng.choice(CHAT_ITEMS)}，"
        f"{rng.choice(CHAT_TAILS)}"
    )


def chronicle_event(r: random.Random) -> str:
    """One event of a chronicle row."""
    return r.choice(
        [
            f"{r.choice(TOOLS)} 升级到 {r.choice(VERSIONS)}",
            f"{r.choice(TASKS_CN)}{r.choice(PROBLEMS_CN)}",
            f"{r.choice(PLATFORMS)} #{r.randint(1000, 9999)} {r.choice(['领取', '提交', '被拒'])}",
            f"{r.choice(AGENTS)} {r.choice(FIXES_CN)}",
            f"主人{r.choice(PREF_VERBS)}{r.choice(PREF_OBJS)}",
        ]
    )
