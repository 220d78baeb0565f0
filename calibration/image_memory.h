// Keeping freed image memory in the process, for the next frame. The CLI, the GUI and the test mains call
// KeepFreedImageMemory() first thing.
//
// The observer allocates and frees float images of the board (1200x800x3 floats: 11.5 MB) a dozen times a frame,
// and OpenCV's functions their temporaries of the same sizes.
// - glibc's malloc gives blocks that large fresh pages from mmap, or, once its dynamic threshold has risen, takes
//   them from the heap but returns the heap's free top to the system whenever it passes twice that threshold;
//   either way every frame faulted its buffers' pages in again. On the reference machine (a VM, where a page fault
//   costs more) that was most of the rectify stage (`swref bench vision`: 199 of 328 ms; 36 ms now). Serving
//   blocks up to 32 MB (the most glibc allows) from the heap and trimming only above 512 MB of free top keeps
//   those pages. The price is a little memory: freed blocks stay in the process (the bench's peak of
//   `swref observe` is 140 MB, under the 150 MB goal).
// - Under AddressSanitizer malloc is the sanitizer's, which maps every block over 128 KB afresh (and its shadow)
//   and unmaps it after the quarantine: half the observer's time under the sanitizers went there. In a sanitizer
//   build OpenCV's default allocator becomes a pool instead: a freed buffer of 128 KB or more is kept (96 MB at
//   most, the oldest given back first) and the next Mat of exactly that size gets it. A kept buffer is poisoned, so a use
//   after free is still reported; a stale pointer into a buffer that was handed out again is not (the price:
//   the fuzz targets, which run without the pool, keep the sanitizer's full quarantine). In a Release build the
//   pool is not installed: there it only added memory (182 MB against 129 MB for 30 photos) and saved no time.
#pragma once

#include <cstddef>

// SWREF_ASAN is defined in a build with AddressSanitizer (GCC says so with __SANITIZE_ADDRESS__, clang with
// __has_feature): the pool below is installed there, and its tests check the poisoning there.
#if defined(__SANITIZE_ADDRESS__)
#define SWREF_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SWREF_ASAN 1
#endif
#endif

namespace swref::calibration {

void KeepFreedImageMemory();

// The pool for OpenCV's large buffers (above): OpenCV's default allocator for every cv::Mat created from now on
// (Mats that exist keep theirs). KeepFreedImageMemory() installs it in a sanitizer build; tests install it in any.
// Later calls change only the limit. Thread-safe.
void InstallImagePool(size_t max_cached_bytes = size_t{96} << 20);

struct ImagePoolStats {
  size_t reused = 0;        // large buffers served from the pool
  size_t allocated = 0;     // large buffers the pool had none for
  size_t cached_bytes = 0;  // held free now
};

// The installed pool's counts (all zero when none is installed).
ImagePoolStats ImagePoolCounts();

}  // namespace swref::calibration
