# cython: language_level=3
"""The C board's layout and C methods, for the extensions that read a kingdom at C
level (the Kingdomino observation encoder, :mod:`kingdoms.rl._ckingdomino_obs`).
The array sizes are :mod:`kingdoms.kingdomino._cboard`'s ``SIZE`` (210) and
``SIDE + 2`` (15)."""

cimport cython


@cython.final
cdef class CBoard:
    cdef unsigned char ter[210]
    cdef unsigned char crw[210]
    cdef public int size
    cdef readonly int minx, maxx, miny, maxy
    cdef public list placed
    cdef public list discarded
    cdef int _total, _largest, _crowns
    cdef bint _score_ok
    cdef int _tscore[6]
    # Rows as bitmasks (bit x of row y + 1; rows 0 and SIDE + 1 stay empty): occupied
    # cells, and per terrain the cells next to a square of it or to the castle.
    cdef unsigned short occr[15]
    cdef unsigned short adjr[6][15]

    cpdef CBoard copy(self)
    cdef void _touch(self, int t, int x, int y) noexcept
    cdef void _window(self, int* box) noexcept
    cdef int _placements(self, int number, int* out, bint first_only) noexcept
    cpdef list legal_placements(self, domino)
    cdef void _put(self, int cell, int t, int c) noexcept
    cpdef place(self, domino, int code)
    cdef void _place(self, int number, int code) except *
    cdef void _fill(self, int start, int t, int* size, int* crowns) noexcept
    cdef int _terrain_points(self, int t) noexcept
    cdef void _scores(self) noexcept
    cpdef int property_score(self)
    cpdef int largest_property(self)
    cpdef int total_crowns(self)
    cpdef int terrain_score(self, int t)
    cpdef int gain(self, domino, int code)
    cdef int _holes(self, int* box, int a, int b) noexcept
