#include "calibration/small_blur.h"

#include <array>
#include <vector>

#include <opencv2/imgproc.hpp>

namespace swref::calibration {
namespace {

constexpr int kLargestArea = 128 * 128;  // larger images: cv::GaussianBlur is the faster (see the header)

// OpenCV's 8-bit kernel for `sigma`: 2 * round(3 sigma) + 1 taps (as OpenCV sizes it for 8-bit images), each in
// 256ths, rounded, the remainder on the centre so that they sum to 256; taps of 0 at the ends dropped.
std::vector<int> Kernel256(double sigma) {
  const int n = cvRound(sigma * 3 * 2 + 1) | 1;
  const cv::Mat g = cv::getGaussianKernel(n, sigma, CV_64F);
  std::vector<int> k(n);
  int total = 0;
  for (int i = 0; i < n; ++i) total += k[i] = cvRound(256 * g.at<double>(i));
  k[n / 2] += 256 - total;
  while (k.size() > 1 && k.front() == 0) k.erase(k.begin()), k.pop_back();
  return k;
}

// Border reflect 101 (OpenCV's default): ... 2 1 | 0 1 2 ... n-1 | n-2 n-3 ...
int Reflect(int i, int n) { return cv::borderInterpolate(i, n, cv::BORDER_REFLECT_101); }

template <int N>
void Blur(const cv::Mat& src, cv::Mat& dst, const std::vector<int>& kernel) {
  constexpr int kHalf = N / 2, kCh = 3;
  std::array<float, N> k;
  for (int j = 0; j < N; ++j) k[j] = static_cast<float>(kernel[j]);
  const int w = src.cols, h = src.rows, row_len = w * kCh;
  // Rows: each value the kernel's sum over its row (at most 255 * 256), exact.
  std::vector<float> rows(static_cast<size_t>(h) * row_len), padded(static_cast<size_t>(w + 2 * kHalf) * kCh);
  for (int y = 0; y < h; ++y) {
    const uchar* s = src.ptr<uchar>(y);
    for (int i = 0; i < row_len; ++i) padded[kHalf * kCh + i] = s[i];
    for (int x = 1; x <= kHalf; ++x) {
      const int left = Reflect(-x, w), right = Reflect(w - 1 + x, w);
      for (int c = 0; c < kCh; ++c) {
        padded[(kHalf - x) * kCh + c] = s[left * kCh + c];
        padded[(kHalf + w - 1 + x) * kCh + c] = s[right * kCh + c];
      }
    }
    float* __restrict out = rows.data() + static_cast<size_t>(y) * row_len;
    const float* __restrict p = padded.data();
    for (int i = 0; i < row_len; ++i) {
      float acc = k[kHalf] * p[i + kHalf * kCh];
      for (int j = 0; j < kHalf; ++j) acc += k[j] * (p[i + j * kCh] + p[i + (N - 1 - j) * kCh]);
      out[i] = acc;
    }
  }
  // Columns: each sum at most 255 * 256 * 256 (under 2^24), exact; then OpenCV's rounding, (sum + 2^15) >> 16.
  dst.create(src.size(), src.type());
  std::vector<float> acc(row_len);
  for (int y = 0; y < h; ++y) {
    const float* r[N];
    for (int j = 0; j < N; ++j) r[j] = rows.data() + static_cast<size_t>(Reflect(y + j - kHalf, h)) * row_len;
    float* __restrict a = acc.data();
    const float* __restrict centre = r[kHalf];
    for (int i = 0; i < row_len; ++i) a[i] = k[kHalf] * centre[i] + 32768.0f;
    for (int j = 0; j < kHalf; ++j) {
      const float* __restrict up = r[j];
      const float* __restrict down = r[N - 1 - j];
      const float kj = k[j];
      for (int i = 0; i < row_len; ++i) a[i] += kj * (up[i] + down[i]);
    }
    uchar* out = dst.ptr<uchar>(y);
    for (int i = 0; i < row_len; ++i) out[i] = static_cast<uchar>(static_cast<int>(a[i] * (1.0f / 65536)));
  }
}

}  // namespace

void SmallGaussianBlur(const cv::Mat& src, cv::Mat& dst, double sigma) {
  if (src.type() != CV_8UC3 || src.empty() || src.total() > static_cast<size_t>(kLargestArea) || sigma <= 0) {
    cv::GaussianBlur(src, dst, cv::Size(), sigma);
    return;
  }
  thread_local double kernel_sigma = -1;
  thread_local std::vector<int> kernel;
  if (sigma != kernel_sigma) kernel = Kernel256(sigma), kernel_sigma = sigma;
  cv::Mat out;  // src and dst may be the same image
  switch (kernel.size()) {
    case 1: out = src.clone(); break;
    case 3: Blur<3>(src, out, kernel); break;
    case 5: Blur<5>(src, out, kernel); break;
    case 7: Blur<7>(src, out, kernel); break;
    case 9: Blur<9>(src, out, kernel); break;
    default: cv::GaussianBlur(src, out, cv::Size(), sigma);
  }
  dst = out;
}

}  // namespace swref::calibration
