"""``memreview apply``, ``undo`` and ``recover``: writing a file of decisions without the app,
taking the last batch back, and finishing or rolling back a batch cut short by a crash. Each
names the batches cut short first (``memreview.cli.interrupted``)."""

from __future__ import annotations

import sys

from memreview.cli.interrupted import report_interrupted
from memreview.cli.parser import UsageError


def cmd_apply(args) -> int:
    """Apply the decisions of ``args.decisions`` to the workspace ``args.path``."""
    from memreview.decisions import (
        DecisionsFileError,
        apply,
        check_decisions,
        parse_decisions_file,
    )
    from memreview.display import one_line, visible
    from memreview.scan import scan_workspace
    from memreview.store import PathEscape
    from memreview.workspace.loader import check_workspace
    from memreview.workspace.yamlcap import DECISIONS_LIMIT, YAMLRefused, read_capped

    root = check_workspace(args.path)
    name = one_line(str(args.decisions))
    try:
        data = read_capped(args.decisions, DECISIONS_LIMIT)
    except YAMLRefused as exc:
        raise UsageError(f"{name}: refused: {exc}") from None
    except OSError as exc:
        raise UsageError(f"{name}: cannot read ({exc.strerror or exc})") from None
    try:
        entries = parse_decisions_file(data)
    except DecisionsFileError as exc:
        raise UsageError(f"{name}: {one_line(str(exc))}") from None
    # the whole file is checked before anything is written: one bad item, nothing written
    _refuse_bad_decisions(name, check_decisions(entries, {}))
    report_interrupted(root)
    result = scan_workspace(root, today=args.today)
    items = {it["id"]: (q, it) for q, its in result.all_queues.items() for it in its}
    _refuse_bad_decisions(name, check_decisions(entries, items))
    try:
        outcome = apply(result, entries, dry_run=args.dry_run, commit=args.commit or None)
    except OSError as exc:  # e.g. a read-only workspace: .memreview/ can't be created
        print(f"memreview: nothing applied: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except PathEscape as exc:  # e.g. .memreview/ is a symlink that leads out of the workspace
        print(f"memreview: nothing applied: {one_line(str(exc))}", file=sys.stderr)
        return 1
    out, err = sys.stdout, sys.stderr
    if outcome.refused:
        for why in outcome.refused:
            err.write(f"refused: {one_line(why)}\n")
        err.write(
            f"memreview: nothing applied: {args.decisions} decides the same anchor or entry "
            "two ways; keep one of each pair and apply again\n"
        )
        return outcome.exit_code
    if args.dry_run:
        out.write(visible(outcome.diff))
    for p in outcome.conflicts:
        err.write(f"conflict: {one_line(p.decision.key)}: {one_line(p.reason)}\n")
    for p in outcome.failures:
        err.write(f"failed: {one_line(p.decision.key)}: {one_line(p.reason)}\n")
    for message in outcome.messages:
        err.write(f"{one_line(message)}\n")
    verb = "would apply" if args.dry_run else "applied"
    files = [f.rel for f in outcome.files if args.dry_run or f.written]
    summary = f"{verb} {len(outcome.applied)} of {len(entries)} decision(s)"
    summary += f", {len(files)} file(s)" + (f" (batch {outcome.batch})" if outcome.batch else "")
    if outcome.skipped:
        summary += f"; {len(outcome.skipped)} already applied, skipped"
    if outcome.pending and not args.dry_run:
        summary += f"; {len(outcome.pending)} left pending in .memreview/pending.yaml"
    err.write(summary + "\n")
    return outcome.exit_code


def cmd_undo(args) -> int:
    """Undo the last applied batch of the workspace ``args.path``, or batch ``args.batch``."""
    from memreview.cli.history import one_workspace
    from memreview.decisions import undo
    from memreview.display import one_line, visible
    from memreview.store import LockHeld, PathEscape
    from memreview.workspace.loader import check_workspace

    root = check_workspace(one_workspace(args.path))
    report_interrupted(root)
    try:
        outcome = undo(root, batch_id=getattr(args, "batch", None))
    except LockHeld as exc:
        print(f"memreview: {one_line(str(exc))}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"memreview: nothing undone: {one_line(exc.strerror or str(exc))}", file=sys.stderr)
        return 1
    except PathEscape as exc:
        print(f"memreview: nothing undone: {one_line(str(exc))}", file=sys.stderr)
        return 1
    if outcome.diff and (not outcome.ok or getattr(args, "batch", None)):
        # why it stopped; with --batch also what it wrote (the later batches' lines stay)
        sys.stdout.write(visible(outcome.diff))
    print(f"memreview: {one_line(outcome.message)}", file=sys.stderr)
    return outcome.exit_code


def cmd_recover(args) -> int:
    """Name the batches cut short; with ``--finish`` or ``--rollback``, end the last one."""
    from memreview.decisions import finish, undo
    from memreview.display import one_line
    from memreview.store import LockHeld, PathEscape, interrupted_batches, last_batch
    from memreview.workspace.loader import check_workspace

    root = check_workspace(args.path)
    count = report_interrupted(root)
    if not count:
        print("memreview: no batch was cut short; nothing to recover", file=sys.stderr)
        return 0
    if not (args.finish or args.rollback):
        return 1
    try:
        if args.finish:
            outcome = finish(root)
        else:
            last = last_batch(root, undoable=True)
            cut = {i.batch.batch_id for i in interrupted_batches(root)}
            if last is None or last.batch_id not in cut:
                print(
                    "memreview: the batch cut short is not the last one; undo the later "
                    "batches first (`memreview undo`)",
                    file=sys.stderr,
                )
                return 1
            outcome = undo(root)
    except LockHeld as exc:
        print(f"memreview: {one_line(str(exc))}", file=sys.stderr)
        return 1
    except (OSError, PathEscape) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        print(f"memreview: nothing recovered: {one_line(reason)}", file=sys.stderr)
        return 1
    print(f"memreview: {one_line(outcome.message)}", file=sys.stderr)
    return 0 if outcome.ok else 1


def _refuse_bad_decisions(name: str, problems: list[str]) -> None:
    from memreview.display import one_line

    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise UsageError(f"{name}: {one_line(problems[0])}{more}; nothing written")
