"""The only code that writes workspace files (docs/design.md §4): atomic whole-file rewrites with
backups, an append-only journal, locks, undo, and memreview's own files under .memreview/.

What is exported here is the store's interface; the floors above import ``memreview.store``,
never its modules (checked by the import contracts in pyproject.toml).

Each name is imported from its module when first used: a scan, which reads memreview's own
files but writes nothing, does not import the writer, the journal, undo or git (about 30 ms
of every scan's start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memreview import names_imported_on_use

# each name of the interface, by the module of the store it lives in
_WHERE = {
    "atomic_write": "atomic",
    "commit_batch": "git",
    "is_git_repo": "git",
    "run_git": "git",
    "BatchEntry": "history",
    "Blocker": "history",
    "batch_diff": "history",
    "batch_history": "history",
    "kind_word": "history",
    "pruned_batches": "history",
    "undo_batch": "history",
    "undo_blockers": "history",
    "undo_last": "history",
    "InterruptedBatch": "interrupted",
    "InterruptedFile": "interrupted",
    "interrupted_batches": "interrupted",
    "UNDOABLE_KINDS": "journal",
    "BatchRecord": "journal",
    "JournalFile": "journal",
    "batches": "journal",
    "failed_keys": "journal",
    "last_batch": "journal",
    "undone_among": "journal",
    "JournalProblem": "journal_lines",
    "journal_problems": "journal_lines",
    "read_journal": "journal_lines",
    "RECENT_DAYS": "journal_replay",
    "recent_decisions": "journal_replay",
    "DEFAULT_LOCK_FILES": "locks",
    "LockHeld": "locks",
    "LockState": "locks",
    "lock_states": "locks",
    "own_lock": "locks",
    "PathEscape": "paths",
    "resolve_inside": "paths",
    "safe_read_bytes": "paths",
    "TooLarge": "private",
    "append_line": "private",
    "read_private": "private",
    "read_private_within": "private",
    "remove_private_unlisted": "private",
    "rename_private": "private",
    "write_private": "private",
    "PruneResult": "prune",
    "backup_usage": "prune",
    "prune_backups": "prune",
    "finish_batch": "recover",
    "redaction_blind": "reverse",
    "STEPS": "safewrite",
    "BatchResult": "safewrite",
    "BatchStopped": "safewrite",
    "Conflict": "safewrite",
    "Failure": "safewrite",
    "FileJob": "safewrite",
    "FileOutcome": "safewrite",
    "FileResult": "safewrite",
    "FunctionJob": "safewrite",
    "apply_batch": "safewrite",
    "unified_diff": "safewrite",
    "scrub_backups": "scrub",
    "SEEN_FILE": "seen",
    "bullet_in_backups": "seen",
    "forget_promotions": "seen",
    "read_seen": "seen",
    "remember_promotions": "seen",
    "PrivateMend": "swapped",
    "mend_private_dir": "swapped",
    "clean_temp_files": "temps",
    "VERDICTS_FILES": "undo",
    "UndoResult": "undo",
}

__all__ = [
    "SEEN_FILE",
    "bullet_in_backups",
    "forget_promotions",
    "read_seen",
    "remember_promotions",
    "BatchEntry",
    "Blocker",
    "UNDOABLE_KINDS",
    "batch_diff",
    "batch_history",
    "kind_word",
    "pruned_batches",
    "PruneResult",
    "backup_usage",
    "prune_backups",
    "undo_batch",
    "undo_blockers",
    "scrub_backups",
    "DEFAULT_LOCK_FILES",
    "RECENT_DAYS",
    "STEPS",
    "VERDICTS_FILES",
    "BatchRecord",
    "BatchResult",
    "BatchStopped",
    "Conflict",
    "Failure",
    "FileJob",
    "FileOutcome",
    "FileResult",
    "FunctionJob",
    "InterruptedBatch",
    "InterruptedFile",
    "JournalFile",
    "JournalProblem",
    "LockHeld",
    "LockState",
    "PathEscape",
    "PrivateMend",
    "UndoResult",
    "append_line",
    "atomic_write",
    "apply_batch",
    "batches",
    "undone_among",
    "clean_temp_files",
    "commit_batch",
    "failed_keys",
    "finish_batch",
    "interrupted_batches",
    "is_git_repo",
    "journal_problems",
    "last_batch",
    "lock_states",
    "own_lock",
    "mend_private_dir",
    "read_journal",
    "read_private",
    "redaction_blind",
    "recent_decisions",
    "resolve_inside",
    "run_git",
    "safe_read_bytes",
    "undo_last",
    "unified_diff",
    "write_private",
    "read_private_within",
    "rename_private",
    "remove_private_unlisted",
    "TooLarge",
]

__getattr__ = names_imported_on_use(__name__, _WHERE)

if TYPE_CHECKING:
    from memreview.store.atomic import atomic_write
    from memreview.store.git import commit_batch, is_git_repo, run_git
    from memreview.store.history import (
        BatchEntry,
        Blocker,
        batch_diff,
        batch_history,
        kind_word,
        pruned_batches,
        undo_batch,
        undo_blockers,
        undo_last,
    )
    from memreview.store.interrupted import InterruptedBatch, InterruptedFile, interrupted_batches
    from memreview.store.journal import (
        UNDOABLE_KINDS,
        BatchRecord,
        JournalFile,
        batches,
        failed_keys,
        last_batch,
        undone_among,
    )
    from memreview.store.journal_lines import JournalProblem, journal_problems, read_journal
    from memreview.store.journal_replay import RECENT_DAYS, recent_decisions
    from memreview.store.locks import DEFAULT_LOCK_FILES, LockHeld, LockState, lock_states, own_lock
    from memreview.store.paths import PathEscape, resolve_inside, safe_read_bytes
    from memreview.store.private import (
        TooLarge,
        append_line,
        read_private,
        read_private_within,
        remove_private_unlisted,
        rename_private,
        write_private,
    )
    from memreview.store.prune import PruneResult, backup_usage, prune_backups
    from memreview.store.recover import finish_batch
    from memreview.store.reverse import redaction_blind
    from memreview.store.safewrite import (
        STEPS,
        BatchResult,
        BatchStopped,
        Conflict,
        Failure,
        FileJob,
        FileOutcome,
        FileResult,
        FunctionJob,
        apply_batch,
        unified_diff,
    )
    from memreview.store.scrub import scrub_backups
    from memreview.store.seen import (
        SEEN_FILE,
        bullet_in_backups,
        forget_promotions,
        read_seen,
        remember_promotions,
    )
    from memreview.store.swapped import PrivateMend, mend_private_dir
    from memreview.store.temps import clean_temp_files
    from memreview.store.undo import VERDICTS_FILES, UndoResult
