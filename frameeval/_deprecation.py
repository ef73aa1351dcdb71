"""Renamed arguments: the old name keeps working for one release, with a DeprecationWarning
that names the new one (issue 14: one name per meaning, listed in the changelog); and
arguments that became keyword-only, still taken by position for one release the same way."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["keyword_only_after", "renamed_argument"]

_T = TypeVar("_T", bound=type)


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


def keyword_only_after(keep: int, *names: str) -> Callable[[_T], _T]:
    """A class decorator (above ``@dataclass``): the constructor's arguments past the first
    ``keep`` are keyword-only (``names``, in their old positional order, declared after
    ``KW_ONLY``), and for one release are still taken by position with a DeprecationWarning
    naming them; type checkers see the keyword-only signature."""

    def decorate(cls: _T) -> _T:
        init: Callable[..., None] = cls.__dict__["__init__"]

        @functools.wraps(init)
        def wrapper(self: Any, *args: Any, **kwargs: Any) -> None:
            extra = args[keep : keep + len(names)]
            if extra:
                moved = names[: len(extra)]
                taken = [name for name in moved if name in kwargs]
                if taken:
                    raise TypeError(
                        f"{cls.__name__}(): got multiple values for argument {taken[0]!r}"
                    )
                import warnings

                warnings.warn(
                    f"{cls.__name__}(): passing {', '.join(moved)} by position is deprecated "
                    "and will be removed in the next release; pass them by keyword ("
                    f"{', '.join(f'{n}=' for n in moved)}), got {len(args)} positional "
                    "arguments.",
                    DeprecationWarning,
                    stacklevel=2,
                )
                kwargs = {**dict(zip(moved, extra, strict=True)), **kwargs}
                args = (*args[:keep], *args[keep + len(names) :])
            init(self, *args, **kwargs)

        cls.__init__ = wrapper  # type: ignore[misc]
        return cls

    return decorate
