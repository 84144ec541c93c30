"""``memreview apply``, ``undo`` and ``recover``: writing a file of decisions without the app,
taking the last batch back, and finishing or rolling back a batch cut short by a crash. Each
names the batches cut short first (``memreview.cli.interrupted``)."""

from __future__ import annotations

import sys

from memreview.cli.interrupted import report_interrupted
from memreview.cli.parser import UsageError
from memreview.i18n import _, ngettext


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
    from memreview.store import BatchStopped, PathEscape
    from memreview.workspace.loader import check_workspace
    from memreview.workspace.yamlcap import DECISIONS_LIMIT, YAMLRefused, read_capped

    root = check_workspace(args.path)
    name = one_line(str(args.decisions))
    try:
        data = read_capped(args.decisions, DECISIONS_LIMIT)
    except YAMLRefused as exc:
        raise UsageError(_("{file}: refused: {reason}").format(file=name, reason=exc)) from None
    except OSError as exc:
        raise UsageError(
            _("{file}: cannot read ({reason})").format(file=name, reason=exc.strerror or exc)
        ) from None
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
    except BatchStopped as exc:  # written in part: the batch is named, recover ends it
        print(f"memreview: {one_line(str(exc))}", file=sys.stderr)
        return 1
    except OSError as exc:  # e.g. a read-only workspace: .memreview/ can't be created
        print(
            _("memreview: nothing applied: {reason}").format(reason=exc.strerror or exc),
            file=sys.stderr,
        )
        return 1
    except PathEscape as exc:  # e.g. .memreview/ is a symlink that leads out of the workspace
        print(
            _("memreview: nothing applied: {reason}").format(reason=one_line(str(exc))),
            file=sys.stderr,
        )
        return 1
    out, err = sys.stdout, sys.stderr
    if outcome.refused:
        for why in outcome.refused:
            err.write(_("refused: {reason}").format(reason=one_line(why)) + "\n")
        message = _(
            "memreview: nothing applied: {file} decides the same anchor or entry two ways; "
            "keep one of each pair and apply again"
        )
        err.write(message.format(file=args.decisions) + "\n")
        return outcome.exit_code
    if args.dry_run:
        diff = visible(outcome.diff)
        out.write(diff if not diff or diff.endswith("\n") else diff + "\n")
    for p in outcome.conflicts:
        err.write(
            _("conflict: {key}: {reason}").format(
                key=one_line(p.decision.key), reason=one_line(p.reason)
            )
            + "\n"
        )
    for p in outcome.failures:
        err.write(
            _("failed: {key}: {reason}").format(
                key=one_line(p.decision.key), reason=one_line(p.reason)
            )
            + "\n"
        )
    for message in outcome.messages:
        err.write(f"{one_line(message)}\n")
    files = [f.rel for f in outcome.files if args.dry_run or f.written]
    err.write(_summary(args.dry_run, outcome, len(entries), len(files)) + "\n")
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
        outcome = undo(root, batch_id=getattr(args, "batch", None), scan=_scan)
    except LockHeld as exc:
        print(_("memreview: {message}").format(message=one_line(str(exc))), file=sys.stderr)
        return 1
    except OSError as exc:
        reason = one_line(exc.strerror or str(exc))
        print(_("memreview: nothing undone: {reason}").format(reason=reason), file=sys.stderr)
        return 1
    except PathEscape as exc:
        print(
            _("memreview: nothing undone: {reason}").format(reason=one_line(str(exc))),
            file=sys.stderr,
        )
        return 1
    if outcome.diff and (not outcome.ok or getattr(args, "batch", None)):
        # why it stopped; with --batch also what it wrote (the later batches' lines stay)
        sys.stdout.write(visible(outcome.diff))
    print(_("memreview: {message}").format(message=one_line(outcome.message)), file=sys.stderr)
    return outcome.exit_code


def _scan(root):
    """The workspace as an undo leaves it: what it stages again is checked against it."""
    from memreview.scan import scan_workspace

    return scan_workspace(root)


def cmd_recover(args) -> int:
    """Name the batches cut short; with ``--finish`` or ``--rollback``, end the last one."""
    from memreview.decisions import finish, undo
    from memreview.display import one_line
    from memreview.store import LockHeld, PathEscape, interrupted_batches, last_batch
    from memreview.workspace.loader import check_workspace

    root = check_workspace(args.path)
    count = report_interrupted(root)
    if not count:
        print(_("memreview: no batch was cut short; nothing to recover"), file=sys.stderr)
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
                    _(
                        "memreview: the batch cut short is not the last one; undo the later "
                        "batches first (`memreview undo`)"
                    ),
                    file=sys.stderr,
                )
                return 1
            outcome = undo(root, scan=_scan)
    except LockHeld as exc:
        print(_("memreview: {message}").format(message=one_line(str(exc))), file=sys.stderr)
        return 1
    except (OSError, PathEscape) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        print(
            _("memreview: nothing recovered: {reason}").format(reason=one_line(reason)),
            file=sys.stderr,
        )
        return 1
    print(_("memreview: {message}").format(message=one_line(outcome.message)), file=sys.stderr)
    return 0 if outcome.ok else 1


def _refuse_bad_decisions(name: str, problems: list[str]) -> None:
    from memreview.display import one_line

    if problems:
        more = len(problems) - 1
        if more:
            message = ngettext(
                "{file}: {problem} (and {count} more); nothing written",
                "{file}: {problem} (and {count} more); nothing written",
                more,
            )
        else:
            message = _("{file}: {problem}; nothing written")
        raise UsageError(message.format(file=name, problem=one_line(problems[0]), count=more))


def _summary(dry_run: bool, outcome, decided: int, files: int) -> str:
    """The last line of ``memreview apply``: what was (or would be) written."""
    from memreview.decisions import files_phrase

    applied = len(outcome.applied)
    if dry_run:
        text = ngettext(
            "would apply {applied} of {count} decision",
            "would apply {applied} of {count} decisions",
            decided,
        )
    else:
        text = ngettext(
            "applied {applied} of {count} decision",
            "applied {applied} of {count} decisions",
            decided,
        )
    text = text.format(applied=applied, count=decided)
    # the same count as the app's review and result: the workspace's files, memreview's
    # own list of hidden items named apart
    hides = bool(outcome.state_diff) if dry_run else bool(outcome.hidden)
    text = _("{decisions}, {files}").format(decisions=text, files=files_phrase(files, hides))
    if outcome.batch:
        text += _(" (batch {batch})").format(batch=outcome.batch)
    if outcome.skipped:
        text += _("; {count} already applied, skipped").format(count=len(outcome.skipped))
    if outcome.pending and not dry_run and outcome.pending_error:
        # never "left pending" when the file could not take them
        text += _(
            "; {count} should stay pending, but .memreview/pending.yaml could not be saved "
            "(decide them again)"
        ).format(count=len(outcome.pending))
    elif outcome.pending and not dry_run:
        text += _("; {count} left pending in .memreview/pending.yaml").format(
            count=len(outcome.pending)
        )
    return text
