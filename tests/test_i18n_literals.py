"""No user-visible English text left outside `_()`: an AST scan of memreview/.

It looks where text reaches the owner — warnings on the workspace (`warn`), notifications,
exceptions raised (their message is what the CLI and the app show), widgets (`Static`,
`Label`, `Button`, Rich's `Text`), `print` and writes to the terminal, messages and notes
collected for the user, and the reason/message/label fields of conflicts, flags and
tables — and flags each string literal (or f-string) with words in it that is not passed
through `_()`, `N_()`, `ngettext()` or `Nn_()` (memreview/i18n.py).

A text with no words of its own (`"{a}: {b}"`, `" · "`, a path or a file name) is not
interface text. What is deliberately left English is in `ALLOWED`, each with its reason.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "memreview"

# parts of memreview/ that speak to developers, not to the owner
NOT_INTERFACE = {
    "memreview/synth": "the sample generator writes memory files (the owner's text), for tests",
    "memreview/locale/catalog.py": "the catalogue tool speaks to whoever translates",
}

MARKERS = {"_", "N_", "ngettext", "Nn_"}

# calls whose string arguments are shown to the owner
SINK_CALLS = {
    "warn",  # a warning on the workspace (Workspace.warn) or a list of problems
    "notify",
    "Static",
    "Label",
    "Button",
    "Text",
    "print",
    "error",  # argparse's parser.error and logging-like helpers
    "fail",
    "fail_all",
    "failures_for",
    "Problem",
    "Conflict",
    "Refuse",
    "Secret",
    "refuse",
    "problem",
    "Facts",  # a queue's evidence blocks (memreview/decisions/unit.py) and its actions
    "RefBlock",
    "Passage",
    "Caption",
    "Pair",
    "Act",
    "Message",  # a text kept for later: its first argument is marked with N_() or Nn_()
    "report",  # the loader's and the scan's progress stages
    "progress",
}
# calls whose arguments are passed on as they are (visible(one_line("...")))
PASS_THROUGH = {"visible", "one_line", "str", "escape", "md_text", "Text", "strip", "rstrip"}
# keyword arguments and dict keys that hold interface text
SINK_NAMES = {
    "reason",
    "why",
    "message",
    "title",
    "label",
    "help",
    "description",
    "detail",
    "hint",
    "note",
    "notes",
    "question",
    "heading",
    "prompt",
    "placeholder",
    "tooltip",
    "summary",
    "fix",
    "epilog",
    "metavar_help",
}
# `.append(...)`/`+=` on a list of these names collects lines for the owner
SINK_LISTS = {"messages", "notes", "problems", "warnings", "reasons", "errors", "lines_for_user"}

# proper names, file names and the like: not words to translate
PROPER = {
    "memreview",
    "openclaw",
    "OpenClaw",
    "MEMORY",
    "HEARTBEAT",
    "NOW",
    "AGENTS",
    "SOUL",
    "USER",
    "TOOLS",
    "IDENTITY",
    "md",
    "yaml",
    "json",
    "jsonl",
    "db",
    "JSON",
    "YAML",
    "UTF",
    "GBK",
    "SQLite",
    "git",
    "id",
    "ID",
}
_FIELD = re.compile(r"\{[^{}]*\}")
_PATHISH = re.compile(r"\S*[/\\]\S*|\S+\.(?:md|json|jsonl|yaml|db|py|tcss)\b|--?[a-z][\w-]*")
_WORD = re.compile(r"[A-Za-z][A-Za-z']+")

# the literal -> where it is and why it stays as it is (by text, not by file: a module that
# is split or moved keeps its exceptions)
ALLOWED: dict[str, str] = {
    "a detector does not change the workspace": (
        "scan: a programming error (a detector that writes), raised for the test suite"
    ),
    "a deferred part of the workspace asked for itself": (
        "workspace/loader.py: a programming error (a loop among the parts read later)"
    ),
    "module {} has no attribute {}": (
        "a package's lazy names (__getattr__): Python's own AttributeError, for programmers"
    ),
    "not an evidence block: {}": (
        "app/render.py: a programming error, a queue's evidence renderer gave something else"
    ),
    "unclosed": "decisions/rewrite/whole.py: caught where raised; the JSON is written whole",
    "no value": "decisions/rewrite/whole.py: caught where raised; the JSON is written whole",
    "Rejected: {} (promoted {}; source {}; flags: {})": (
        "decisions/units/promotions.py: written into the rejected archive, a memory file"
    ),
    "# memreview's own state: items hidden by a decision, and until when.\n": (
        "decisions/state.py: the first line of memreview's own state file, not shown"
    ),
    "the current directory": (
        "workspace/locate.py: compared, never shown (the agent picker opens only for several)"
    ),
}


def _words(text: str) -> list[str]:
    if re.fullmatch(r"[\w.:/-]*", text):
        return []  # one token: an id, a key, a style or a file name ("memory", "bold")
    text = _PATHISH.sub(" ", _FIELD.sub(" ", text))
    return [w for w in _WORD.findall(text) if w not in PROPER and w.lower() not in PROPER]


def _sentence(text: str) -> bool:
    """Two words or more: a returned id (`"held"`, `"approve"`) is not a sentence."""
    return len(_words(text)) >= 2 and not re.fullmatch(r"[\w.:/-]+", text)


def _literal_text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def _name(func: ast.AST) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _texts(node: ast.AST):  # noqa: C901
    """The literals reaching a sink through `node`, not through a marker."""
    if node is None:
        return
    text = _literal_text(node)
    if text is not None:
        yield node, text
        if isinstance(node, ast.JoinedStr):
            for v in node.values:
                if isinstance(v, ast.FormattedValue):
                    yield from _texts(v.value)
        return
    if isinstance(node, ast.Call):
        name = _name(node.func)
        if name in MARKERS:
            return
        if name == "format" and isinstance(node.func, ast.Attribute):
            yield from _texts(node.func.value)
            for a in node.args:
                yield from _texts(a)
            for k in node.keywords:
                yield from _texts(k.value)
            return
        if name == "join" and isinstance(node.func, ast.Attribute):
            for a in node.args:
                yield from _texts(a)
            return
        if name in PASS_THROUGH:
            for a in node.args:
                yield from _texts(a)
        return
    if isinstance(node, ast.BinOp):
        yield from _texts(node.left)
        yield from _texts(node.right)
    elif isinstance(node, ast.IfExp):
        yield from _texts(node.body)
        yield from _texts(node.orelse)
    elif isinstance(node, ast.BoolOp):
        for v in node.values:
            yield from _texts(v)
    elif isinstance(node, ast.List | ast.Tuple):
        for v in node.elts:
            yield from _texts(v)


def _sinks(tree: ast.AST):  # noqa: C901
    """(expression, what it is) for each place whose text reaches the owner."""
    reprs = {
        id(n)
        for f in ast.walk(tree)
        if isinstance(f, ast.FunctionDef) and f.name == "__repr__"
        for n in ast.walk(f)
    }
    for node in ast.walk(tree):
        if id(node) in reprs:
            continue  # a __repr__ speaks to programmers
        if isinstance(node, ast.Return) and node.value is not None:
            # a returned sentence: a reason, a problem, a label (ids are single words)
            yield node.value, "return"
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            for a in node.exc.args:
                yield a, "raise"
        elif isinstance(node, ast.Call):
            name = _name(node.func)
            if name in SINK_CALLS:
                for a in node.args:
                    yield a, name
            if name == "write" and isinstance(node.func, ast.Attribute):
                for a in node.args:
                    yield a, "write"
            if name in ("append", "extend") and isinstance(node.func, ast.Attribute):
                target = _name(node.func.value)
                if target in SINK_LISTS:
                    for a in node.args:
                        yield a, f"{target}.{name}"
            for k in node.keywords:
                if k.arg in SINK_NAMES:
                    yield k.value, f"{k.arg}="
        elif isinstance(node, ast.AugAssign) and _name(node.target) in SINK_LISTS:
            yield node.value, f"{_name(node.target)} +="
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value in SINK_NAMES:
                    yield value, f"{key.value!r}:"


def untranslated() -> list[str]:
    """`file:line: literal` for each interface text outside the markers."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if any(rel == k or rel.startswith(k + "/") for k in NOT_INTERFACE):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        seen: set[int] = set()
        for expr, sink in _sinks(tree):
            for node, text in _texts(expr):
                if id(node) in seen or text in ALLOWED or not _words(text):
                    continue
                if sink == "return" and not _sentence(text):
                    continue
                seen.add(id(node))
                found.append(f"{rel}:{node.lineno}: {sink} {text!r}")
    return found


def test_every_interface_text_goes_through_the_translation_function():
    found = untranslated()
    assert found == [], f"{len(found)} texts outside _():\n" + "\n".join(found)


def test_the_scan_finds_what_it_is_meant_to_find(tmp_path):
    # the scan itself: a warning, an exception and a reason field outside _() are found;
    # the same inside _() or N_(), and texts with no words, are not
    code = """
def f(ws, x):
    ws.warn("a.md", 1, f"cannot read {x}")
    ws.warn("a.md", 1, N_("cannot read {x}"))
    raise DecisionError("no such item")
    raise DecisionError(_("no such item {x}").format(x=x))
    return {"reason": "kept both"} | {"reason": f"{x}: {x}"}
"""
    tree = ast.parse(code)
    texts = [t for expr, _s in _sinks(tree) for _n, t in _texts(expr) if _words(t)]
    assert sorted(texts) == ["cannot read {}", "kept both", "no such item"]


def test_no_function_hides_the_translation_function_behind_a_local_underscore():
    # `folder, _, name = rel.rpartition("/")` in a function that also calls _() makes `_` a
    # local name there: the call fails (UnboundLocalError) on the very path that reports
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            nodes = list(ast.walk(fn))
            stores = any(
                isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store)
                for n in nodes
            )
            calls = any(
                isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_"
                for n in nodes
            )
            if stores and calls:
                found.append(f"{path.relative_to(ROOT)}:{fn.lineno} {fn.name}")
    assert found == []
