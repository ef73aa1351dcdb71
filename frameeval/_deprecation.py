"""Renamed arguments: the old name keeps working for one release, with a DeprecationWarning
that names the new one (issue 14: one name per meaning, listed in the changelog)."""

from __future__ import annotations

from typing import Any

__all__ = ["renamed_argument"]


def renamed_argument(
    func: str, old: str, new: str, old_value: Any, new_value: Any, what: str = "the same column"
) -> Any:
    """The value of argument ``new=``, or of the deprecated ``old=`` when that is given (it
    wins, with a DeprecationWarning naming ``new=``: ``new=`` has a default, so whether both
    were passed cannot be told). ``what`` says what the argument is, for the message."""
    if old_value is None:
        return new_value
    import warnings

    warnings.warn(
        f"{func}(): {old}= is deprecated and will be removed in the next release; use {new}= "
        f"({what}), got {old}={old_value!r}.",
        DeprecationWarning,
        stacklevel=3,
    )
    return old_value
