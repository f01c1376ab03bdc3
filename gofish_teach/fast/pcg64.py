"""NumPy's ``default_rng(seed).random()``, compiled: the seats' generators of the fast path.

Seat ``s`` of game ``g`` draws from its own generator, whose doubles are
``numpy.random.default_rng(int(seeds[g, s]))``'s (the readable engine uses
``strategies.seat_rng``, the same stream). numba can use a ``Generator`` passed in, but cannot
create one in compiled code, and making one per seat in Python costs more than the game itself.
So this module re-implements the two pieces ``default_rng(seed)`` is made of, for an integer
seed: NumPy's ``SeedSequence`` (its documented hash of the seed into the initial state) and the
``PCG64`` bit generator (128-bit LCG with XSL-RR output; ``random()`` is
``(next_uint64 >> 11) * 2**-53``). A table ``rngs`` holds one state per row (one row per seat):
:func:`seed_state` sets a row as ``default_rng(seed)`` would, :func:`next_double` draws from it.
The doubles are bit for bit NumPy's, which ``tests/test_fast.py`` checks against NumPy itself:

>>> import numpy as np
>>> seeds = np.array([0, 7, 2**64 - 1], dtype=np.uint64)
>>> mine = random_doubles(seeds, 3)
>>> bool((mine == [np.random.default_rng(int(s)).random(3) for s in seeds]).all())
True

Editing this file: numba's cache does not notice changes to compiled functions defined in
another file (a documented limit of its caching), so the cached code of
:mod:`.engine` (and of the search bot, :mod:`gofish_teach.bestplay.search`), which call these,
would keep the old version. Delete their caches (``gofish_teach/fast/__pycache__/engine.*.nbi``
and ``.nbc``, ``gofish_teach/bestplay/__pycache__/search.*``) after a change here.
"""
from __future__ import annotations

import numpy as np
from numba import njit

#: uint64 words of one generator's row in ``rngs``: [state_hi, state_lo, inc_hi, inc_lo].
STATE_SIZE = 4
#: uint64 words :func:`seed_state` needs as room to work in (SeedSequence's pool, then the state).
WORK_SIZE = 8

# numba turns a mix of uint64 and plain ints into float64, so every constant is typed.
_U16, _U32, _U11, _U58, _U63 = np.uint64(16), np.uint64(32), np.uint64(11), np.uint64(58), np.uint64(63)
_U64 = np.uint64(64)
_ONE = np.uint64(1)
_MASK32 = np.uint64(0xFFFFFFFF)
# SeedSequence's hash constants (numpy/random/bit_generator.pyx).
_INIT_A, _MULT_A = np.uint64(0x43B0D7E5), np.uint64(0x931E8875)
_INIT_B, _MULT_B = np.uint64(0x8B51F9DD), np.uint64(0x58F38DED)
_MIX_L, _MIX_R = np.uint64(0xCA01F9DD), np.uint64(0x4973F715)
# PCG64's 128-bit multiplier, high and low halves.
_PCG_HI, _PCG_LO = np.uint64(0x2360ED051FC65DA4), np.uint64(0x4385DF649FCCF645)
_TO_DOUBLE = 1.0 / 9007199254740992.0  # 2**-53
_POOL_SIZE = 4  # SeedSequence's pool, in 32-bit words (its default pool_size)

# error_model="numpy": no divisor here is ever zero, and Python's error model would add a
# check to each % and //.


@njit(cache=True, error_model="numpy")
def _hashmix(value, hash_const):
    # SeedSequence's 32-bit hash; returns the new value and the advanced constant.
    value = (value ^ hash_const) & _MASK32
    hash_const = (hash_const * _MULT_A) & _MASK32
    value = (value * hash_const) & _MASK32
    return value ^ (value >> _U16), hash_const


@njit(cache=True, error_model="numpy")
def _mix(x, y):
    result = (_MIX_L * x - _MIX_R * y) & _MASK32
    return result ^ (result >> _U16)


@njit(cache=True, error_model="numpy")
def _mulhi(a, b):
    """The high 64 bits of the 128-bit product of two uint64."""
    a0, a1, b0, b1 = a & _MASK32, a >> _U32, b & _MASK32, b >> _U32
    p00, p01, p10, p11 = a0 * b0, a0 * b1, a1 * b0, a1 * b1
    mid = (p00 >> _U32) + (p01 & _MASK32) + (p10 & _MASK32)
    return p11 + (p01 >> _U32) + (p10 >> _U32) + (mid >> _U32)


@njit(cache=True, error_model="numpy")
def _pcg_step(rngs, s):
    # state = state * multiplier + increment (mod 2**128); rngs[s] = [state_hi, state_lo, inc_hi, inc_lo]
    # (the table and a row number, not the row itself: a row view costs more than the step)
    hi, lo = rngs[s, 0], rngs[s, 1]
    new_hi = _mulhi(lo, _PCG_LO) + hi * _PCG_LO + lo * _PCG_HI
    new_lo = lo * _PCG_LO
    low = new_lo + rngs[s, 3]
    carry = _ONE if low < new_lo else np.uint64(0)
    rngs[s, 0] = new_hi + rngs[s, 2] + carry
    rngs[s, 1] = low


@njit(cache=True, error_model="numpy")
def seed_state(rngs, s, seed, work):
    """Set ``rngs[s]`` (:data:`STATE_SIZE` uint64) to the state of ``np.random.default_rng(seed)`` for a uint64
    ``seed``; ``work`` is room for :data:`WORK_SIZE` uint64 (passed in: an allocation per seat
    per game costs more than the hash)."""
    # SeedSequence(seed): the entropy is the seed's 32-bit words, low first. A seed below
    # 2**32 has one word, but a missing word hashes like a zero word, so two words always do.
    pool = work[:_POOL_SIZE]
    words = (seed & _MASK32, seed >> _U32, np.uint64(0), np.uint64(0))
    hash_const = _INIT_A
    for i in range(_POOL_SIZE):
        pool[i], hash_const = _hashmix(words[i], hash_const)
    for i_src in range(_POOL_SIZE):
        for i_dst in range(_POOL_SIZE):
            if i_src != i_dst:
                mixed, hash_const = _hashmix(pool[i_src], hash_const)
                pool[i_dst] = _mix(pool[i_dst], mixed)
    # generate_state(4, uint64): eight 32-bit words from the pool, paired low word first.
    state = work[_POOL_SIZE:]
    hash_const = _INIT_B
    for i in range(8):
        value = (pool[i % _POOL_SIZE] ^ hash_const) & _MASK32
        hash_const = (hash_const * _MULT_B) & _MASK32
        value = (value * hash_const) & _MASK32
        value ^= value >> _U16
        if i % 2 == 0:
            state[i // 2] = value
        else:
            state[i // 2] |= value << _U32
    # PCG64(seed_seq): initstate = state[0:2], initseq = state[2:4] (each high word first);
    # inc = initseq * 2 + 1; then step, add initstate, step (pcg_setseq_128_srandom_r).
    rngs[s, 2] = (state[2] << _ONE) | (state[3] >> _U63)
    rngs[s, 3] = (state[3] << _ONE) | _ONE
    rngs[s, 0] = np.uint64(0)
    rngs[s, 1] = np.uint64(0)
    _pcg_step(rngs, s)
    low = rngs[s, 1] + state[1]
    carry = _ONE if low < rngs[s, 1] else np.uint64(0)
    rngs[s, 0] = rngs[s, 0] + state[0] + carry
    rngs[s, 1] = low
    _pcg_step(rngs, s)


@njit(cache=True, error_model="numpy")
def next_double(rngs, s):
    """The next ``Generator.random()`` double of the generator in ``rngs[s]``."""
    _pcg_step(rngs, s)
    hi, lo = rngs[s, 0], rngs[s, 1]
    x = hi ^ lo
    rot = hi >> _U58
    x = (x >> rot) | (x << ((_U64 - rot) & _U63))  # XSL-RR output
    return np.float64(x >> _U11) * _TO_DOUBLE


@njit(cache=True, error_model="numpy")
def _random_doubles(seeds, k):
    out = np.empty((seeds.shape[0], k))
    rngs = np.empty((1, STATE_SIZE), np.uint64)
    work = np.empty(WORK_SIZE, np.uint64)
    for g in range(seeds.shape[0]):
        seed_state(rngs, 0, seeds[g], work)
        for i in range(k):
            out[g, i] = next_double(rngs, 0)
    return out


def random_doubles(seeds: np.ndarray, k: int) -> np.ndarray:
    """The first ``k`` doubles of ``np.random.default_rng(int(s)).random()`` for each seed, compiled."""
    seeds = np.atleast_1d(seeds)
    return _random_doubles(as_seeds(seeds, (len(seeds),), "one integer seed per row"), int(k))


def as_seeds(seeds, shape: tuple, what: str) -> np.ndarray:
    """``seeds`` as a uint64 array of ``shape`` (``None`` in it: any size of at least 1), or a
    ``ValueError`` saying it should be ``what``.

    >>> as_seeds([[1, 2]], (1, None), "seeds per seat")
    array([[1, 2]], dtype=uint64)
    >>> as_seeds([-1], (1,), "one seed")
    Traceback (most recent call last):
    ...
    ValueError: seeds: must be non-negative (they are np.random.default_rng seeds)
    """
    seeds = np.asarray(seeds)
    ok = seeds.ndim == len(shape) and all(want is None or got == want for got, want in zip(seeds.shape, shape, strict=True))
    if not ok or seeds.dtype.kind not in "ui":
        raise ValueError(f"seeds: expected {what}, got {seeds.dtype} of shape {seeds.shape}")
    if seeds.dtype.kind == "i" and (seeds < 0).any():
        raise ValueError("seeds: must be non-negative (they are np.random.default_rng seeds)")
    return np.ascontiguousarray(seeds, dtype=np.uint64)
