/* recframe-impl: what the chunk encoder (src/recframe-enc.c) and decoder
 * (src/recframe.c) agree on, and nothing else uses. */
#ifndef TRACETOP_RECFRAME_IMPL_H
#define TRACETOP_RECFRAME_IMPL_H

/* Bits of a chunk's parts field. */
#define PART_SAMPLING 1u
/* Bits of a frame (row key or call graph node) flags field. */
#define FL_KERNEL 1u
#define FL_INLINED 2u
#define FL_OTHER 4u

#endif
