r"""Learners' text as data: names, CSV cells, terminal lines and chart labels that mean only what they say.

Everything a learner types or names (an answer, a notebook's or an entry's file name, an
exception's message) reaches a teacher's spreadsheet, terminal or chart. Each of those reads some
text as instructions: a spreadsheet a cell starting with ``=``, a terminal an escape sequence,
matplotlib a pair of ``$``. These helpers make such text literal, one per place it is shown, so
that every command that shows learners' text uses the same rule.

>>> normalise_name("  ana\u200b ")          # a zero-width space and edge spaces removed
'ana'
>>> normalise_name("\uff5a\uff45\uff44")    # full-width letters are the same name (NFKC)
'zed'
>>> csv_cell('=HYPERLINK("http://x")'), csv_cell("\t=1+2"), csv_cell(""), csv_cell(None), csv_cell(-3)
('\'=HYPERLINK("http://x")', "'\t=1+2", '', '', '-3')
>>> print(terminal("champion\x1b[2J\x1b[H"))  # escapes shown, not obeyed
champion\x1b[2J\x1b[H
>>> import io, matplotlib.pyplot as plt
>>> with literal_charts():                    # mathtext off: "$\fishy{$" is drawn as typed
...     fig, ax = plt.subplots(); _ = ax.set_title("mm$\\fishy{$"); fig.savefig(io.BytesIO()); plt.close(fig)
"""
from __future__ import annotations

import unicodedata

#: What a spreadsheet reads as the start of a formula (OWASP's list: = + - @, a tab and a carriage return).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def normalise_name(text: str) -> str:
    """A learner's name as the class sees it: NFKC, no invisible characters, single inner spaces, no edge spaces.

    Two names that print alike become equal, so they cannot make two rows that look like one.
    """
    text = unicodedata.normalize("NFKC", str(text))
    kept = "".join(" " if ch.isspace() else ch for ch in text if unicodedata.category(ch) not in ("Cf", "Cc")
                   or ch.isspace())
    return " ".join(kept.split())


def distinct_names(names, reserved=None) -> list[tuple[str, str]]:
    """Learners' names as the class sees them, each shown for one learner only: ``(shown, "")`` or ``("", why)`` each.

    Each name is normalised (:func:`normalise_name`) and refused, with a sentence saying why, when
    that leaves nothing, when ``reserved(shown)`` gives a reason (a built-in's label, say), or when
    it prints like another name given. Of names that print alike, the one typed as it prints keeps
    it (``ana`` beside ``ana`` and a zero-width space: a classmate cannot push ``ana`` out), and
    the others are refused; if no one or more than one is typed so, all of them are.

    >>> builtin = lambda shown: "a built-in's label" if shown.endswith("(built-in)") else ""
    >>> names = ["ana", "ana\u200b", "zed ", "memory (built-in)", "\u200b"]
    >>> for name, (shown, why) in zip(names, distinct_names(names, builtin)):
    ...     print(f'"{terminal(name)}":', f'shown as "{shown}"' if shown else why)
    "ana": shown as "ana"
    "ana\u200b": it prints as "ana", as another name does (invisible characters and spaces at the edges do not count)
    "zed ": shown as "zed"
    "memory (built-in)": it is a built-in's label
    "\u200b": it is empty once invisible characters and spaces at the edges are removed
    """
    names = list(names)
    shown = [normalise_name(name) for name in names]
    alike: dict[str, list] = {}
    for name, text in zip(names, shown, strict=True):
        alike.setdefault(text, []).append(name)
    out = []
    for name, text in zip(names, shown, strict=True):
        why = reserved(text) if reserved is not None and text else ""
        if not text:
            out.append(("", "it is empty once invisible characters and spaces at the edges are removed"))
        elif why:
            out.append(("", f"it is {why}"))
        elif len(alike[text]) > 1 and (name != text or alike[text].count(text) > 1):
            out.append(("", f'it prints as "{text}", as another name does (invisible characters and spaces at '
                            "the edges do not count)"))
        else:
            out.append((text, ""))
    return out


def csv_cell(value) -> str:
    """A value as a spreadsheet cell that is never a formula: text starting like one gets a leading ``'``.

    Numbers stay numbers (``-3`` is not quoted); an empty or missing value is an empty cell.
    """
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def terminal(text: str) -> str:
    """Text for one line of a terminal: control characters (escapes, newlines, bidi overrides) shown as ``\\x..``."""
    out = []
    for ch in str(text):
        if unicodedata.category(ch) in ("Cc", "Cf") and ch != " ":
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def literal_charts():
    """A context in which matplotlib draws every text as typed (no mathtext, no TeX): wrap charts of learners' text.

    ``text.parse_math`` is read when a text is made, so the whole figure is made inside it.
    """
    import matplotlib
    return matplotlib.rc_context({"text.parse_math": False, "text.usetex": False})
