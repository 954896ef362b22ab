# cython: language_level=3
"""The arrays the environments and the OpenSpiel observer hand out, made in C.

numpy's own ``copy`` of an array of more than a few hundred entries releases and
retakes the GIL (its threaded assign path), which costs more than copying the few
kilobytes of an observation or a mask: these functions make the new array with
numpy's C API and ``memcpy`` into it.  :func:`fill_floats` writes an int16 vector
into a float32 tensor in one C loop.  The pure-Python path does the same with numpy
(:meth:`kingdoms.rl.core.StepCore.fresh_mask`, the encoders' Python ``encode``).
"""

from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_GET_SIZE
from libc.string cimport memcpy

cimport numpy as cnp

cnp.import_array()


def fresh_mask(bytearray mask):
    """A new int8 array (the learner's to keep) holding the bytes of ``mask``."""
    cdef cnp.npy_intp n = PyByteArray_GET_SIZE(mask)
    cdef cnp.ndarray out = cnp.PyArray_EMPTY(1, &n, cnp.NPY_INT8, 0)
    memcpy(cnp.PyArray_DATA(out), PyByteArray_AS_STRING(mask), n)
    return out


def fresh_copy(cnp.ndarray src):
    """A new array (its own memory) equal to ``src``, a C-contiguous array."""
    if not cnp.PyArray_IS_C_CONTIGUOUS(src):
        raise ValueError("fresh_copy needs a C-contiguous array")
    cdef cnp.ndarray out = cnp.PyArray_EMPTY(
        cnp.PyArray_NDIM(src), cnp.PyArray_DIMS(src), cnp.PyArray_TYPE(src), 0
    )
    memcpy(cnp.PyArray_DATA(out), cnp.PyArray_DATA(src), cnp.PyArray_NBYTES(src))
    return out


def fill_floats(cnp.ndarray src, cnp.ndarray target):
    """Write ``src``, a contiguous 1-D int16 array, into the start of ``target``, a
    writable contiguous 1-D float32 array at least as long (else ``ValueError``, and
    ``target`` is left unchanged)."""
    cdef Py_ssize_t j, n
    cdef const short* s
    cdef float* t
    if (
        cnp.PyArray_TYPE(src) != cnp.NPY_INT16
        or cnp.PyArray_NDIM(src) != 1
        or not cnp.PyArray_IS_C_CONTIGUOUS(src)
    ):
        raise ValueError("the source must be a contiguous 1-D int16 array")
    if (
        cnp.PyArray_TYPE(target) != cnp.NPY_FLOAT32
        or cnp.PyArray_NDIM(target) != 1
        or not cnp.PyArray_IS_C_CONTIGUOUS(target)
        or not cnp.PyArray_ISWRITEABLE(target)
    ):
        raise ValueError("the target must be a writable contiguous 1-D float32 array")
    n = cnp.PyArray_DIM(src, 0)
    if cnp.PyArray_DIM(target, 0) < n:
        raise ValueError(f"target of {cnp.PyArray_DIM(target, 0)} entries, {n} needed")
    s = <const short*>cnp.PyArray_DATA(src)
    t = <float*>cnp.PyArray_DATA(target)
    for j in range(n):
        t[j] = s[j]
