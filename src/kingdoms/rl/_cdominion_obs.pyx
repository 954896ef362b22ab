# cython: language_level=3, wraparound=False, cdivision=True, initializedcheck=False
"""The Dominion observation vector written in C: the same vector as
:meth:`kingdoms.rl.dominion_obs.DominionEncoder.encode` (which stays the reference
and the fallback), rewritten from the state on every call into one preallocated
buffer per observing seat, of which a copy is handed out.

It reads the engine's fields by name and knows nothing of the cards: the layout's
offsets, the decision kinds' slots and what each decision shows come from the
encoder that builds it (:class:`kingdoms.rl.dominion_obs.DominionEncoder`).  The
victory points of a seat are asked of the state (``vp_of``) only when that seat's
owned counts changed since the last call on the same state.
"""

from cpython.list cimport PyList_GET_ITEM
from libc.string cimport memset

import numpy as np

from kingdoms.rl._cfresh import fill_floats, fresh_copy

cdef enum:
    MAXP = 8
cdef enum:
    MAXK = 256


cdef inline long _item(list xs, Py_ssize_t j) except? -1:
    """``xs[j]`` as a C long (``j`` known in range)."""
    return <object>PyList_GET_ITEM(xs, j)


cdef inline long _at(list xs, long c, long k) except? -1:
    """``xs[c]`` for a card ``c`` (checked: ``0 <= c < min(len(xs), k)``)."""
    if not 0 <= c < k or c >= len(xs):
        raise IndexError(f"card {c} out of range")
    return <object>PyList_GET_ITEM(xs, c)


cdef class NativeDominionEncoder:
    """See the module's docstring.  ``offsets``: the start of each field of the
    layout; ``decisions``: per decision code, ``(slot, subject, whose, hand_zone)``
    (the one-hot slot of its kind, and what the view says it is about); ``held``:
    per frame code, the frame fields holding cards set aside (Golem's finds)."""

    cdef readonly int players
    cdef readonly int size
    cdef int k
    cdef int o_turn, o_to_move, o_possessed_by, o_decision, o_decision_who
    cdef int o_decision_about, o_numbers, o_supply, o_in_supply, o_hand, o_looking
    cdef int o_trash, o_possessed_hand, o_possessed_looking, o_in_play, o_set_aside
    cdef int o_owned, o_decision_card, o_decision_subject, o_discard_top
    cdef object data
    cdef list rows
    cdef short[:, ::1] view
    cdef dict decisions
    cdef dict held
    cdef object state
    cdef object fields
    cdef short owned_seen[MAXP][MAXK]
    cdef long points[MAXP]
    cdef int points_known[MAXP]

    def __init__(
        self, int players, int size, int k, dict offsets, dict decisions, dict held,
        object fields,
    ):
        if not 1 <= players <= MAXP or not 0 < k <= MAXK:
            raise ValueError(f"players must be 1..{MAXP} and cards 1..{MAXK}")
        self.players = players
        self.size = size
        self.k = k
        self.o_turn = offsets["turn"]
        self.o_to_move = offsets["to_move"]
        self.o_possessed_by = offsets["possessed_by"]
        self.o_decision = offsets["decision"]
        self.o_decision_who = offsets["decision_who"]
        self.o_decision_about = offsets["decision_about"]
        self.o_numbers = offsets["counters"]
        self.o_supply = offsets["supply"]
        self.o_in_supply = offsets["in_supply"]
        self.o_hand = offsets["hand"]
        self.o_looking = offsets["looking"]
        self.o_trash = offsets["trash"]
        self.o_possessed_hand = offsets["possessed_hand"]
        self.o_possessed_looking = offsets["possessed_looking"]
        self.o_in_play = offsets["in_play"]
        self.o_set_aside = offsets["set_aside"]
        self.o_owned = offsets["owned"]
        self.o_decision_card = offsets["decision_card"]
        self.o_decision_subject = offsets["decision_subject"]
        self.o_discard_top = offsets["discard_top"]
        self.decisions = decisions
        self.held = held
        # the state's fields _write reads, in one tuple (one call instead of an
        # attribute lookup each; see kingdoms.rl.dominion_obs.native_fields)
        self.fields = fields
        self.data = np.zeros((players, size), dtype=np.int16)
        self.view = self.data
        # each seat's row (the observation handed out is a copy of it)
        self.rows = [self.data[i] for i in range(players)]
        self.state = None

    def __reduce__(self):
        raise TypeError("a NativeDominionEncoder is rebuilt by its DominionEncoder")

    cdef inline int _count(self, short* out, int start, list zone) except -1:
        cdef Py_ssize_t j
        cdef long c
        for j in range(len(zone)):
            c = <object>PyList_GET_ITEM(zone, j)
            if not 0 <= c < self.k:
                raise IndexError(f"card {c} out of range")
            out[start + c] += 1
        return 0

    def encode(self, st, int seat):
        """The observation of ``seat`` (a new int16 array)."""
        self._write(st, seat)
        return fresh_copy(self.rows[seat])

    def buffer(self, st, int seat):
        """The observation of ``seat`` written into the seat's own buffer, which is
        returned (not a copy: the next call for the seat writes it again)."""
        self._write(st, seat)
        return self.data[seat]

    def fill(self, st, int seat, target):
        """The seat's vector written into the start of ``target``, a writable
        contiguous float32 array (OpenSpiel's observer tensor), through the seat's
        buffer: no array made.  A wrong or short target is refused, unchanged."""
        self._write(st, seat)
        fill_floats(self.rows[seat], target)

    cdef int _write(self, st, int seat) except -1:
        cdef int n = self.players
        cdef int k = self.k
        cdef int r, q, c, i, turn, to_move, controller, code_slot
        cdef long m
        cdef object fr, spec, held, f, x
        cdef list stack, hands, decks, discards, in_play, aside, looking, disc
        cdef list supply, piles, owned, row, kinds, turns, discarding
        cdef short* out
        cdef Py_ssize_t j
        if not 0 <= seat < n:
            raise IndexError(f"seat {seat} out of range")
        out = &self.view[seat, 0]
        memset(out, 0, self.size * sizeof(short))
        if st is not self.state:
            self.state = st
            for q in range(n):
                self.points_known[q] = 0
        cdef tuple fs = self.fields(st)
        if len(fs) != 23:
            raise ValueError(f"{len(fs)} fields, 23 expected")
        turn = fs[0]
        stack = fs[1]
        to_move = fs[2]
        controller = fs[3]
        hands = fs[4]
        decks = fs[5]
        discards = fs[6]
        in_play = fs[7]
        aside = fs[8]
        looking = fs[9]
        # -- one-hots
        out[0] = 1
        out[1 + <int>fs[10]] = 1
        out[self.o_turn + (turn - seat + n) % n] = 1
        if to_move >= 0:
            out[self.o_to_move + (to_move - seat + n) % n] = 1
        if controller >= 0:
            out[self.o_possessed_by + (controller - seat + n) % n] = 1
        if stack:
            fr = stack[len(stack) - 1]
            spec = self.decisions[fr.code]
            code_slot = spec[0]
            out[self.o_decision + code_slot] = 1
            out[self.o_decision_who + (<int>fr.who - seat + n) % n] = 1
            c = fr.card
            if c:
                out[self.o_decision_card + c] = 1
            # (subject, whose, hand_zone): what the decision is about, as the view
            # shows it (a card about to enter a hand: only to the seat deciding)
            if (<int>spec[1] >= 0 or <int>spec[2] >= 0) and (not spec[3] or to_move == seat):
                q = fr.field(spec[2]) if <int>spec[2] >= 0 else fr.who
                out[self.o_decision_about + (q - seat + n) % n] = 1
                if <int>spec[1] >= 0:
                    out[self.o_decision_subject + <int>fr.field(spec[1])] = 1
        discarding = fs[11]
        for r in range(n):
            q = (seat + r) % n
            disc = discards[q]
            if disc:
                if discarding[q]:
                    c = st.shown_discard_top(q, seat)
                    if c >= 0:
                        out[self.o_discard_top + r * k + c] = 1
                else:
                    out[self.o_discard_top + r * k + <int>disc[len(disc) - 1]] = 1
        # -- card counts
        self._count(out, self.o_hand, hands[seat])
        self._count(out, self.o_looking, looking[seat])
        self._count(out, self.o_trash, fs[12])
        if controller == seat and turn != seat:
            self._count(out, self.o_possessed_hand, hands[turn])
            self._count(out, self.o_possessed_looking, looking[turn])
        for r in range(n):
            q = (seat + r) % n
            self._count(out, self.o_in_play + r * k, in_play[q])
            self._count(out, self.o_set_aside + r * k, aside[q])
        # cards held by pending frames (Golem's finds) count as set aside
        for fr in stack:
            held = self.held.get(fr.code)
            if held is not None:
                r = (<int>fr.who - seat + n) % n
                for f in held:
                    out[self.o_set_aside + r * k + <int>fr.field(f)] += 1
        # -- the supply, its piles and the empty ones
        supply = fs[13]
        piles = fs[14]
        cdef int empties = 0
        for j in range(len(piles)):
            c = _item(piles, j)
            m = _at(supply, c, k)
            out[self.o_in_supply + c] = 1
            out[self.o_supply + c] = m
            if m == 0:
                empties += 1
        # -- owned counts (the kinds a seat can own in this game) and victory points,
        # asked again only when the seat's counts changed
        owned = fs[15]
        kinds = fs[16]
        cdef int changed
        for r in range(n):
            q = (seat + r) % n
            row = owned[q]
            changed = not self.points_known[q]
            i = self.o_owned + r * k
            for j in range(len(kinds)):
                c = _item(kinds, j)
                m = _at(row, c, k)
                out[i + c] = m
                if self.owned_seen[q][c] != m:
                    self.owned_seen[q][c] = m
                    changed = 1
            if changed:
                self.points[q] = st.vp_of(q)
                self.points_known[q] = 1
        # -- numbers
        i = self.o_numbers
        out[i] = fs[17]
        out[i + 1] = fs[18]
        out[i + 2] = fs[19]
        out[i + 3] = fs[20]
        out[i + 4] = 1 if fs[21] else 0
        out[i + 5] = empties
        turns = fs[22]
        i += 6
        for r in range(n):
            q = (seat + r) % n
            out[i] = len(<list>hands[q])
            out[i + 1] = len(<list>decks[q])
            out[i + 2] = len(<list>discards[q])
            out[i + 3] = turns[q]
            out[i + 4] = len(<list>looking[q])
            out[i + 5] = self.points[q]
            i += 6
        return 0
