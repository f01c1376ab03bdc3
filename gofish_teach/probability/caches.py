"""What the exact path remembers between calls, and the lock held around it.

A player asking at every turn should pay only for what is new, so :mod:`.exact` keeps the
state of each hand it followed, the hands' matrix forms and whole answers in one
:class:`Memory` (:data:`MEMORY`), and :func:`gofish_teach.probability.posterior` keeps its
sampled answers there too. Nothing here changes an answer: :func:`~.exact.forget` and then
the same call give the same result. Every name stays importable from :mod:`.exact`.
"""
from __future__ import annotations

import threading
from collections import OrderedDict


class Recent:
    """The last ``size`` results by key, the least recently used dropped first.

    >>> recent = Recent(2)
    >>> recent.put("a", 1); recent.put("b", 2); recent.get("a"); recent.put("c", 3)
    1
    >>> list(recent.keys())            # "b" was used least recently
    ['a', 'c']
    >>> recent.clear(); len(recent)
    0
    """

    def __init__(self, size: int):
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"size must be a whole number of entries, at least 1, not {size!r}")
        self.size = size
        self._items: OrderedDict = OrderedDict()

    def get(self, key, default=None):
        """The value for ``key`` (now the most recently used), or ``default``."""
        if key not in self._items:
            return default
        self._items.move_to_end(key)
        return self._items[key]

    def put(self, key, value) -> None:
        """Remember ``value``; past :attr:`size` entries, forget the least recently used."""
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def keys(self):
        return self._items.keys()

    def newest_first(self):
        """``(key, value)`` pairs, most recently used first."""
        return reversed(self._items.items())

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


class Memory:
    """What the exact path remembers between calls, so that a player asking at every turn
    pays only for what is new. Nothing here changes an answer: :func:`~.exact.forget` and then the
    same call give the same result.

    Attributes:
        followed: one hand's state (:class:`~.pools.Cases`) after a run of operations, by
            ``(kind, n_ranks, book_size, operations)``; a later call resumes from the longest
            remembered prefix of its own operations.
        hands: hands' matrix forms (:class:`~.hands.Hand`), or the :class:`~.exact.TooBig` a
            hand raised; most hands do not change between two asks.
        counts: whole answers (:class:`~.exact.Counts`, or the :class:`~.exact.TooBig` raised), by story: the
            table's thread counts a bot's view before its turn, and the bot then finds it here.
        sampled: the sampled answers :func:`~gofish_teach.probability.posterior` gave where the
            count was too big, by story, viewer's hand and sampling arguments (the same reason).
        keep_cases: a state with more cases than this is not remembered (not worth its memory).
    """

    def __init__(self, size: int = 48, keep_cases: int = 50_000, answers: int = 16):
        self.followed = Recent(size)
        self.hands = Recent(size)
        self.counts = Recent(answers)
        self.sampled = Recent(answers)
        self.keep_cases = keep_cases

    def clear(self) -> None:
        self.followed.clear()
        self.hands.clear()
        self.counts.clear()
        self.sampled.clear()


#: The one :class:`Memory` of this process.
MEMORY = Memory()

#: Held while anything reads or changes :data:`MEMORY`: the table counts in a thread of its own
#: (so the kernel stays free for clicks) while a cell or a bot may count too, and an ordered dict
#: changed by one thread while another walks it fails. Counts are made one at a time.
COUNTING = threading.RLock()
