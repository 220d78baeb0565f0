// Keeping freed image memory in the process, for the next frame. Header-only: the CLI, the GUI and the test mains
// call it first thing (the engine's tests too, which link no app/core library).
//
// The observer allocates and frees float images of the board (1200x800x3 floats: 11.5 MB) a dozen times a frame.
// glibc's malloc gives blocks that large fresh pages from mmap, or, once its dynamic threshold has risen, takes
// them from the heap but returns the heap's free top to the system whenever it passes twice that threshold; either
// way every frame faulted its buffers' pages in again. On the reference machine (a VM, where a page fault costs
// more) that was most of the rectify stage (`swref bench vision`: 199 of 328 ms; 36 ms now). Serving blocks up to
// 32 MB (the most glibc allows) from the heap and trimming only above 512 MB of free top keeps those pages
// (docs/vision.md). The price is a little memory: freed blocks stay in the process (the bench's peak of
// `swref observe` is 135 MB, under the 150 MB goal).
#pragma once

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace swref::core {

inline void KeepFreedImageMemory() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
}

}  // namespace swref::core
