#include "calibration/image_memory.h"

#include <deque>
#include <mutex>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <opencv2/core.hpp>

#if defined(SWREF_ASAN)
#include <sanitizer/asan_interface.h>
#endif

namespace swref::calibration {

namespace {

constexpr size_t kPooledBytes = size_t{128} << 10;  // ASan serves smaller blocks from its size classes
constexpr size_t kAutoStep = 0x7fffffff;          // CV_AUTOSTEP of the C API: "lay this step out yourself"

// A kept buffer is poisoned for AddressSanitizer: any use before it is handed out again is reported.
void MarkKept(void* p, size_t n, bool kept) {
#if defined(SWREF_ASAN)
  if (kept) {
    ASAN_POISON_MEMORY_REGION(p, n);
  } else {
    ASAN_UNPOISON_MEMORY_REGION(p, n);
  }
#else
  (void)p, (void)n, (void)kept;
#endif
}

// OpenCV's contract for an allocator (cv::MatAllocator): allocate() lays out the steps of a dense array (or adopts
// the caller's data and steps) and returns its UMatData; deallocate() is called when the last Mat lets go.
class PoolAllocator final : public cv::MatAllocator {
 public:
  cv::UMatData* allocate(int dims, const int* sizes, int type, void* data, size_t* step, cv::AccessFlag,
                         cv::UMatUsageFlags) const override {
    size_t bytes = CV_ELEM_SIZE(type);
    for (int i = dims - 1; i >= 0; --i) {
      if (step) {
        if (data && step[i] != kAutoStep) {
          CV_Assert(bytes <= step[i]);
          bytes = step[i];
        } else {
          step[i] = bytes;
        }
      }
      bytes *= static_cast<size_t>(sizes[i]);
    }
    uchar* memory = data ? static_cast<uchar*>(data) : static_cast<uchar*>(Take(bytes));  // Take may throw: first
    auto* u = new cv::UMatData(this);
    u->size = bytes;
    u->data = u->origdata = memory;
    if (data) u->flags |= cv::UMatData::USER_ALLOCATED;
    return u;
  }

  bool allocate(cv::UMatData* u, cv::AccessFlag, cv::UMatUsageFlags) const override { return u != nullptr; }

  void deallocate(cv::UMatData* u) const override {
    if (!u) return;
    CV_Assert(u->urefcount == 0 && u->refcount == 0);
    if (!(u->flags & cv::UMatData::USER_ALLOCATED)) Give(u->origdata, u->size);
    u->origdata = nullptr;
    delete u;
  }

  void SetLimit(size_t bytes) {
    std::lock_guard lock(mutex_);
    limit_ = bytes;
    Trim(0);
  }

  ImagePoolStats Counts() const {
    std::lock_guard lock(mutex_);
    return stats_;
  }

 private:
  struct Block {
    void* data;
    size_t bytes;
  };

  void* Take(size_t bytes) const {
    if (bytes >= kPooledBytes) {
      std::lock_guard lock(mutex_);
      for (auto it = free_.rbegin(); it != free_.rend(); ++it) {  // the most recently freed: its pages are warm
        if (it->bytes != bytes) continue;
        void* p = it->data;
        free_.erase(std::next(it).base());
        stats_.cached_bytes -= bytes;
        ++stats_.reused;
        MarkKept(p, bytes, false);
        return p;
      }
      ++stats_.allocated;
    }
    return cv::fastMalloc(bytes);
  }

  void Give(void* p, size_t bytes) const {
    if (!p) return;
    if (bytes < kPooledBytes) return cv::fastFree(p);
    std::lock_guard lock(mutex_);
    if (bytes > limit_) return cv::fastFree(p);
    Trim(bytes);
    MarkKept(p, bytes, true);
    free_.push_back({p, bytes});
    stats_.cached_bytes += bytes;
  }

  // Frees the oldest blocks until `incoming` more bytes fit under the limit. The caller holds the mutex.
  void Trim(size_t incoming) const {
    while (!free_.empty() && stats_.cached_bytes + incoming > limit_) {
      const Block b = free_.front();
      free_.pop_front();
      stats_.cached_bytes -= b.bytes;
      MarkKept(b.data, b.bytes, false);
      cv::fastFree(b.data);
    }
  }

  mutable std::mutex mutex_;
  mutable std::deque<Block> free_;
  mutable ImagePoolStats stats_;
  size_t limit_ = 0;
};

PoolAllocator* installed = nullptr;  // never deleted: Mats alive at exit still point at it
std::once_flag install_once;

}  // namespace

void InstallImagePool(size_t max_cached_bytes) {
  std::call_once(install_once, [] {
    installed = new PoolAllocator();
    cv::Mat::setDefaultAllocator(installed);
  });
  installed->SetLimit(max_cached_bytes);
}

void KeepFreedImageMemory() {
#if defined(__GLIBC__) && !defined(SWREF_ASAN)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
#if defined(SWREF_ASAN)
  InstallImagePool();
#endif
}

ImagePoolStats ImagePoolCounts() { return installed ? installed->Counts() : ImagePoolStats{}; }

}  // namespace swref::calibration
