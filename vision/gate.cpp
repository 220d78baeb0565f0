// Step 2 of the pipeline: is anything moving over the board? Arms reach in from outside: something on the table
// around the board that crosses the board's edge, or, where the table around the board is out of view, a
// foreground piece that runs along the edge; or a shape far larger than any heap of tokens. A lamp switched on or
// off changes the whole board at once (judged over time, by the referee's session).
#include <algorithm>
#include <array>

#include <opencv2/imgproc.hpp>

#include "vision/observer.h"

namespace swref::vision {

namespace {
constexpr double kRingMm = 40;        // how far around the board the table is watched
constexpr double kRingPxPerMm = 1.0;
constexpr double kCutMm = 4;          // the board's cut edge and its shadow: not watched
size_t kBoardPx(cv::Size ring) {      // ring pixels covered by the board and its cut edge
  const int cut = cvRound((kRingMm - kCutMm) * kRingPxPerMm);
  return static_cast<size_t>(std::max(0, ring.width - 2 * cut)) * std::max(0, ring.height - 2 * cut);
}
// The ring's four strips (ring pixels): top, bottom, left, right, each along a whole side of the board, corners
// included (every watched pixel lies in one, the corners in two). They reach kGrainReachPx onto the board: the
// grain's blur (below) sees the board's cut edge there, as it did over the whole ring.
constexpr int kGrainReachPx = 12;     // a Gaussian of sigma 3 px: OpenCV's kernel reaches 12 px
std::array<cv::Rect, 4> Strips(cv::Size ring) {
  const int r = std::min({cvRound(kRingMm * kRingPxPerMm) + kGrainReachPx, ring.width, ring.height});
  return {cv::Rect(0, 0, ring.width, r), cv::Rect(0, ring.height - r, ring.width, r), cv::Rect(0, 0, r, ring.height),
          cv::Rect(ring.width - r, 0, r, ring.height)};
}
}  // namespace

EdgeRing WarpEdgeRing(const cv::Mat& image, FramePose& pose, cv::Size2d board_mm, const cv::Matx33d& K,
                      const std::vector<double>& dist) {
  EdgeRing ring;
  const double s = kRingPxPerMm;
  // ring pixel (u, v) <- board mm ((u + 0.5) / s - kRingMm, ...)
  const cv::Matx33d board_from_ring(1 / s, 0, 0.5 / s - kRingMm, 0, 1 / s, 0.5 / s - kRingMm, 0, 0, 1);
  const cv::Size size(cvRound((board_mm.width + 2 * kRingMm) * s), cvRound((board_mm.height + 2 * kRingMm) * s));
  if (pose.ring1.empty() || pose.ring_valid.empty()) {
    MakeMaps(pose.pose.image_from_board, board_from_ring, size, K, dist, &pose.ring1, &pose.ring2);
    const cv::Mat ones(image.size(), CV_8U, cv::Scalar(255));
    cv::remap(ones, pose.ring_valid, pose.ring1, pose.ring2, cv::INTER_NEAREST, cv::BORDER_CONSTANT);
    // The frame's own border blends with the black outside it: keep clear of it.
    cv::erode(pose.ring_valid, pose.ring_valid, cv::getStructuringElement(cv::MORPH_RECT, {7, 7}), cv::Point(-1, -1), 1, cv::BORDER_CONSTANT,
              cv::Scalar(0));
    // Only the table around the board, less the board's cut edge.
    const int cut = cvRound((kRingMm - kCutMm) * s);
    pose.ring_valid(cv::Rect(cut, cut, size.width - 2 * cut, size.height - 2 * cut)).setTo(0);
  }
  // Only the strips around the board are warped: the board inside them is not looked at.
  ring.bgr = cv::Mat::zeros(size, CV_8UC3);
  for (const cv::Rect& strip : Strips(size)) {
    cv::Mat out = ring.bgr(strip);
    cv::remap(image, out, pose.ring1(strip), pose.ring2(strip), cv::INTER_LINEAR, cv::BORDER_CONSTANT);
  }
  ring.valid = pose.ring_valid;
  return ring;
}

namespace {

// One strip of the ring: the frame's colours over the reference's, and where they changed.
struct Strip {
  cv::Rect rect;                     // in ring pixels
  int first_row = 0, end_row = 0;    // the ring rows it counts as its own (a side strip's ends are the top and
                                     // bottom strips'): each ring pixel is counted once
  bool Owns(int ring_row) const { return ring_row >= first_row && ring_row < end_row; }
  cv::Mat ratio;                     // CV_32FC3, (frame + 4) / (reference + 4)
  cv::Mat valid, change;             // CV_8U
};

// The ring's light over the reference's as a smooth field: the ratio averaged over the unchanged watched pixels
// within about 60 mm (on cells of kCell ring pixels, over the whole ring at once: a lamp's gradient runs round a
// corner), the median gain where nothing unchanged is near. Sampled back at each strip's pixels, bilinear between
// the cells' centres.
constexpr int kCell = 8;
std::vector<cv::Mat> SmoothGain(const std::vector<Strip>& strips, cv::Size ring, cv::Scalar median_gain) {
  const cv::Size cells((ring.width + kCell - 1) / kCell, (ring.height + kCell - 1) / kCell);
  cv::Mat num(cells, CV_32FC3, cv::Scalar::all(0)), den(cells, CV_32F, cv::Scalar(0));
  for (const Strip& s : strips) {
    for (int y = 0; y < s.rect.height; ++y) {
      const int ry = s.rect.y + y;
      if (!s.Owns(ry)) continue;
      const cv::Vec3f* q = s.ratio.ptr<cv::Vec3f>(y);
      const uchar* v = s.valid.ptr<uchar>(y);
      const uchar* c = s.change.ptr<uchar>(y);
      cv::Vec3f* n = num.ptr<cv::Vec3f>(ry / kCell);
      float* d = den.ptr<float>(ry / kCell);
      for (int x = 0; x < s.rect.width; ++x) {
        if (!v[x] || c[x]) continue;
        const int cx = (s.rect.x + x) / kCell;
        n[cx] += q[x], d[cx] += 1;
      }
    }
  }
  // As averages over a whole cell (as cv::resize's INTER_AREA gave them), so that the median's small pull below
  // weighs as it did; the last cells of a ring not a multiple of kCell wide are partial.
  num *= 1.0 / (kCell * kCell);
  den *= 1.0 / (kCell * kCell);
  const double sigma = 60.0 * kRingPxPerMm / kCell;
  cv::GaussianBlur(num, num, cv::Size(), sigma);
  cv::GaussianBlur(den, den, cv::Size(), sigma);
  cv::Mat den3, gain_cells;
  cv::merge(std::vector<cv::Mat>{den, den, den}, den3);
  const cv::Mat fallback(cells, CV_32FC3, median_gain);
  cv::divide(num + fallback * 1e-3, den3 + cv::Scalar::all(1e-3), gain_cells);
  std::vector<cv::Mat> out;
  for (const Strip& s : strips) {
    cv::Mat g(s.rect.size(), CV_32FC3);
    for (int y = 0; y < g.rows; ++y) {
      const float fy = std::clamp((s.rect.y + y + 0.5f) / kCell - 0.5f, 0.0f, cells.height - 1.0f);
      const int y0 = static_cast<int>(fy), y1 = std::min(y0 + 1, cells.height - 1);
      const float wy = fy - y0;
      const cv::Vec3f* r0 = gain_cells.ptr<cv::Vec3f>(y0);
      const cv::Vec3f* r1 = gain_cells.ptr<cv::Vec3f>(y1);
      cv::Vec3f* o = g.ptr<cv::Vec3f>(y);
      for (int x = 0; x < g.cols; ++x) {
        const float fx = std::clamp((s.rect.x + x + 0.5f) / kCell - 0.5f, 0.0f, cells.width - 1.0f);
        const int x0 = static_cast<int>(fx), x1 = std::min(x0 + 1, cells.width - 1);
        const float wx = fx - x0;
        o[x] = (r0[x0] * (1 - wx) + r0[x1] * wx) * (1 - wy) + (r1[x0] * (1 - wx) + r1[x1] * wx) * wy;
      }
    }
    out.push_back(g);
  }
  return out;
}

// Where a strip's ratio is more than `tolerance` off the gain.
cv::Mat Changed(const Strip& s, const cv::Mat& gain, float tolerance) {
  cv::Mat rel, dev;
  cv::divide(s.ratio, gain, rel);
  cv::absdiff(rel, cv::Scalar::all(1), dev);
  std::vector<cv::Mat> ch;
  cv::split(dev, ch);
  return cv::Mat((cv::max(cv::max(ch[0], ch[1]), ch[2]) > tolerance) & s.valid);
}

// How far a ring pixel's colour may stray from the reference's in the table's light (per channel, as a ratio) and
// still be the table. A pale arm over linen or light wood differs from it by only 15-30 % in a channel: at 0.35,
// of 16 photos of arms over each of the test rigs' tables (tests/vision/gate_test.cpp), 5 over linen, 2 over oak
// and 4 over pine were not seen as motion; at 0.2 (and with the shadow's test below), none over linen and oak, 4
// over pine. The four accuracy suites read the same still photos as still.
constexpr float kChangeTolerance = 0.2f;

// The fine texture of an image: its grey less its blur (the wood's grain).
void Grain(const cv::Mat& bgr, cv::Mat* grain) {
  cv::Mat g, blurred;
  cv::cvtColor(bgr, g, cv::COLOR_BGR2GRAY);
  g.convertTo(g, CV_32F);
  cv::GaussianBlur(g, blurred, cv::Size(), 3);
  *grain = g - blurred;
}

// Where the frame shows the reference's grain (CV_8U, 255): around each pixel (9 x 9 ring pixels) the reference has
// grain (a variance over 4) and the frame's fine texture follows it (a correlation over 0.5).
cv::Mat ShowsGrain(const cv::Mat& grain_f, const cv::Mat& grain_r) {
  cv::Mat ff, rr, fr, norm;
  cv::boxFilter(grain_f.mul(grain_f), ff, CV_32F, {9, 9});
  cv::boxFilter(grain_r.mul(grain_r), rr, CV_32F, {9, 9});
  cv::boxFilter(grain_f.mul(grain_r), fr, CV_32F, {9, 9});
  cv::sqrt(ff.mul(rr) + 1e-6f, norm);
  return (rr > 4) & (fr > 0.5f * norm);
}

// The light a lamp's reflection adds to the table. Per ring pixel: how much of the glare's colour `k` (unit length)
// the frame gained over the reference in the table's light (alpha, 8-bit units, CV_32F), and whether what it
// gained is that colour, at least kLitFloor of it (lit, CV_8U). A channel the camera clipped may have gained less:
// it gives no measure and may fall short. (As rectify.cpp FindGlare judges the board's cells.)
struct AddedLight {
  cv::Mat alpha, lit;
};
constexpr float kClipped = 250;
constexpr float kLitFloor = 8;
AddedLight MeasureAddedLight(const std::vector<Strip>& strips, const std::vector<cv::Mat>& gains, const EdgeRing& frame,
                             const EdgeRing& reference, cv::Vec3f k, cv::Size ring) {
  AddedLight out{cv::Mat::zeros(ring, CV_32F), cv::Mat::zeros(ring, CV_8U)};
  for (size_t si = 0; si < strips.size(); ++si) {
    const Strip& s = strips[si];
    for (int y = 0; y < s.rect.height; ++y) {
      const int ry = s.rect.y + y;
      if (!s.Owns(ry)) continue;
      const cv::Vec3b* f = frame.bgr.ptr<cv::Vec3b>(ry) + s.rect.x;
      const cv::Vec3b* r = reference.bgr.ptr<cv::Vec3b>(ry) + s.rect.x;
      const cv::Vec3f* g = gains[si].ptr<cv::Vec3f>(y);
      const uchar* v = s.valid.ptr<uchar>(y);
      float* alpha = out.alpha.ptr<float>(ry) + s.rect.x;
      uchar* lit = out.lit.ptr<uchar>(ry) + s.rect.x;
      for (int x = 0; x < s.rect.width; ++x) {
        if (!v[x]) continue;
        cv::Vec3f d;
        float num = 0, den = 0;
        for (int c = 0; c < 3; ++c) {
          d[c] = f[x][c] - g[x][c] * r[x][c];
          if (f[x][c] < kClipped) num += d[c] * k[c], den += k[c] * k[c];
        }
        const float a = den > 0.1f ? num / den : d.dot(k);
        float r2 = 0;
        for (int c = 0; c < 3; ++c) {
          float rc = d[c] - a * k[c];
          if (f[x][c] >= kClipped) rc = std::min(rc, 0.0f);
          r2 += rc * rc;
        }
        alpha[x] = a;
        lit[x] = a >= kLitFloor && std::sqrt(r2) < 0.25f * a + 6 ? 255 : 0;
      }
    }
  }
  return out;
}

// A changed piece is glare when nearly all of it gained the glare's colour (kLitShare) and its edges are soft: a
// reflection fades out over centimetres, an arm or a sleeve ends within a millimetre or two. Measured as the mean
// slope of the added light along the piece's edge (where the table around it is in view), per millimetre, over
// the piece's brightest (its 90th percentile). On the synthetic felt and linen tables (tests/vision/gate_test.cpp),
// reflections 140 and 300 frame pixels across beside the board reached 0.006-0.030; arms whose sleeves or skin
// gained the glare's colour (pale arms over green felt: 85-96 % of their pixels) 0.049 and more.
constexpr double kLitShare = 0.9;
constexpr double kSoftEdge = 0.04;
bool LooksLikeGlare(const AddedLight& light, const cv::Mat& cc, int piece, const cv::Mat& stats, const cv::Mat& valid) {
  const cv::Rect box(stats.at<int>(piece, cv::CC_STAT_LEFT), stats.at<int>(piece, cv::CC_STAT_TOP), stats.at<int>(piece, cv::CC_STAT_WIDTH),
                     stats.at<int>(piece, cv::CC_STAT_HEIGHT));
  const cv::Rect pad = (box + cv::Size(8, 8) - cv::Point(4, 4)) & cv::Rect(cv::Point(), cc.size());
  cv::Mat smooth, gx, gy, slope, inner;
  cv::GaussianBlur(light.alpha(pad), smooth, cv::Size(), 1.0);
  cv::Sobel(smooth, gx, CV_32F, 1, 0, 3, 0.125);
  cv::Sobel(smooth, gy, CV_32F, 0, 1, 3, 0.125);
  cv::magnitude(gx, gy, slope);
  // Only where the table is in view 3 px around: the ring's own limits (the board's cut, the frame's border) are
  // not the piece's edge.
  cv::erode(valid(pad), inner, cv::getStructuringElement(cv::MORPH_RECT, {7, 7}));
  std::vector<float> alphas;
  double edge = 0;
  int edge_px = 0;
  for (int y = 0; y < pad.height; ++y) {
    const int ry = pad.y + y;
    for (int x = 0; x < pad.width; ++x) {
      const int rx = pad.x + x;
      if (cc.at<int>(ry, rx) != piece) continue;
      alphas.push_back(light.alpha.at<float>(ry, rx));
      if (!inner.at<uchar>(y, x)) continue;
      auto other = [&](int u, int v) { return u < 0 || v < 0 || u >= cc.cols || v >= cc.rows || cc.at<int>(v, u) != piece; };
      if (other(rx - 1, ry) || other(rx + 1, ry) || other(rx, ry - 1) || other(rx, ry + 1)) edge += slope.at<float>(y, x), ++edge_px;
    }
  }
  if (alphas.empty() || edge_px == 0) return false;
  auto top = alphas.begin() + alphas.size() * 9 / 10;
  std::nth_element(alphas.begin(), top, alphas.end());
  return *top >= kLitFloor && edge / edge_px < kSoftEdge * *top;
}

}  // namespace

// The table is judged in the ring's four strips only (the board inside them is not looked at): the light's gains
// over the whole ring, then each strip's changes. `glare_colour`: the colour glare adds (Rectified::glare_colour).
TableWatch WatchTable(const EdgeRing& frame, const EdgeRing& reference, cv::Vec3f glare_colour) {
  TableWatch t;
  const cv::Mat valid = frame.valid & reference.valid;
  t.change = cv::Mat::zeros(valid.size(), CV_8U);
  // Too little of the table in view to tell (the board fills the frame): the board's edge alone decides.
  if (cv::countNonZero(valid) < 0.2 * (valid.total() - kBoardPx(valid.size()))) return t;
  t.watched = true;
  std::vector<Strip> strips;
  for (const cv::Rect& r : Strips(valid.size())) {
    Strip s;
    s.rect = r;
    const bool side = strips.size() >= 2;  // top, bottom, then the sides
    s.first_row = side ? strips[0].rect.br().y : r.y;
    s.end_row = side ? strips[1].rect.y : r.br().y;
    s.valid = valid(r);
    cv::Mat f, g;
    frame.bgr(r).convertTo(f, CV_32FC3);
    reference.bgr(r).convertTo(g, CV_32FC3);
    cv::divide(f + cv::Scalar::all(4), g + cv::Scalar::all(4), s.ratio);
    strips.push_back(std::move(s));
  }
  // The table's light may have changed, unevenly (a lamp's gradient, vignetting): per-channel gains, first the
  // median ratio of frame to reference (robust to an arm), then a smooth field fitted twice on what the round
  // before found unchanged.
  cv::Scalar median_gain;
  {
    std::vector<float> ratios[3];
    size_t most = 0;
    for (const Strip& s : strips) most += static_cast<size_t>(s.rect.width / 2 + 1) * (s.rect.height / 2 + 1);
    for (auto& r : ratios) r.reserve(most);
    // Every other pixel of the ring in each direction (even ring coordinates), each once.
    for (const Strip& s : strips) {
      for (int y = s.rect.y & 1; y < s.rect.height; y += 2) {
        const int ry = s.rect.y + y;
        if (!s.Owns(ry)) continue;
        const uchar* v = s.valid.ptr<uchar>(y);
        const cv::Vec3f* q = s.ratio.ptr<cv::Vec3f>(y);
        for (int x = s.rect.x & 1; x < s.rect.width; x += 2) {
          if (v[x]) for (int c = 0; c < 3; ++c) ratios[c].push_back(q[x][c]);
        }
      }
    }
    for (int c = 0; c < 3; ++c) {
      if (ratios[c].empty()) {
        t.watched = false;  // nothing of the table to judge after all
        return t;
      }
      auto mid = ratios[c].begin() + ratios[c].size() / 2;
      std::nth_element(ratios[c].begin(), mid, ratios[c].end());
      median_gain[c] = *mid;
    }
  }
  for (Strip& s : strips) s.change = Changed(s, cv::Mat(s.ratio.size(), CV_32FC3, median_gain), 0.6f);
  std::vector<cv::Mat> gains;
  for (int round = 0; round < 2; ++round) {
    gains = SmoothGain(strips, valid.size(), median_gain);
    for (size_t k = 0; k < strips.size(); ++k) strips[k].change = Changed(strips[k], gains[k], kChangeTolerance);
  }
  cv::Mat change = cv::Mat::zeros(valid.size(), CV_8U);
  for (const Strip& s : strips) change(s.rect) |= s.change;
  cv::morphologyEx(change, change, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, {5, 5}));
  const int cut = cvRound((kRingMm - kCutMm) * kRingPxPerMm), rim = cvRound(3 * kRingPxPerMm);
  cv::Mat rim_mask(valid.size(), CV_8U, cv::Scalar(0));
  cv::rectangle(rim_mask, cv::Rect(cut - rim, cut - rim, valid.cols - 2 * (cut - rim), valid.rows - 2 * (cut - rim)), cv::Scalar(255), rim);
  // Glare on the table brightens it and a shadow darkens it, but the wood's grain still shows through; an arm or a
  // sleeve hides it. A changed piece whose fine texture still follows the reference's is glare or a shadow, not a
  // change. A plain cloth (felt, linen) has no grain to show: a piece is glare too when it gained the glare's colour
  // throughout and its edges are soft (LooksLikeGlare).
  cv::Mat cc, stats, centroids;
  const int n = Components(change, cc, stats, centroids);
  const AddedLight light = n > 1 ? MeasureAddedLight(strips, gains, frame, reference, glare_colour, valid.size()) : AddedLight{};
  std::vector<int> at_rim(n, 0), lit(n, 0), through(n, 0);
  std::vector<double> sff(n, 0), srr(n, 0), sfr(n, 0);
  for (const Strip& s : strips) {
    if (cv::countNonZero(change(s.rect)) == 0) continue;  // nothing changed along this side
    cv::Mat grain_f, grain_r;
    Grain(frame.bgr(s.rect), &grain_f);
    Grain(reference.bgr(s.rect), &grain_r);
    const cv::Mat shows_grain = ShowsGrain(grain_f, grain_r);
    for (int y = 0; y < s.rect.height; ++y) {
      const int ry = s.rect.y + y;
      if (!s.Owns(ry)) continue;
      const int* l = cc.ptr<int>(ry) + s.rect.x;
      const uchar* m = rim_mask.ptr<uchar>(ry) + s.rect.x;
      const uchar* e = light.lit.ptr<uchar>(ry) + s.rect.x;
      const float* a = grain_f.ptr<float>(y);
      const float* b = grain_r.ptr<float>(y);
      const uchar* g = shows_grain.ptr<uchar>(y);
      for (int x = 0; x < s.rect.width; ++x) {
        if (l[x] <= 0) continue;
        at_rim[l[x]] += m[x] != 0;
        lit[l[x]] += e[x] != 0;
        through[l[x]] += g[x] != 0;
        sff[l[x]] += a[x] * a[x], srr[l[x]] += b[x] * b[x], sfr[l[x]] += a[x] * b[x];
      }
    }
  }
  for (int i = 1; i < n; ++i) {
    const double area = stats.at<int>(i, cv::CC_STAT_AREA);
    const bool textured = srr[i] / area > 4;  // the reference shows grain here (a plain cloth has none)
    const double corr = sfr[i] / std::sqrt(std::max(sff[i] * srr[i], 1e-9));
    // Its grain showing through as a whole, a piece is glare when most of it gained light, a shadow when most of it
    // shows the grain pixel by pixel; an arm's piece that took in its shadow (or a reflection beside it) is neither.
    const bool light_or_shadow = textured && corr > 0.5 && (lit[i] >= 0.5 * area || through[i] >= 0.5 * area);
    const bool glare = light_or_shadow || (lit[i] >= kLitShare * area && LooksLikeGlare(light, cc, i, stats, valid));
    if (glare) at_rim[i] = -1;  // dropped below
  }
  t.change = cv::Mat(change.size(), CV_8U);
  for (int y = 0; y < cc.rows; ++y) {
    const int* l = cc.ptr<int>(y);
    uchar* o = t.change.ptr<uchar>(y);
    for (int x = 0; x < cc.cols; ++x) o[x] = l[x] > 0 && at_rim[l[x]] >= 0 ? 255 : 0;
  }
  // Something big that changed on the table and reaches the board's edge.
  const double px_per_mm2 = kRingPxPerMm * kRingPxPerMm;
  for (int i = 1; i < n; ++i) {
    // A wrist is some 50 mm wide: glare or a token's shadow on the table is smaller.
    if (at_rim[i] / kRingPxPerMm >= 35 && stats.at<int>(i, cv::CC_STAT_AREA) / px_per_mm2 >= 1200) t.arm = true;
  }
  return t;
}

bool IsMotion(const Foreground& fg, double max_area_mm2, const TableWatch& table, std::string* why) {
  constexpr double px_per_mm = kBoardPxPerMm;
  if (table.arm) {
    if (why) *why = "an arm or a hand crosses the board's edge";
    return true;
  }
  // Labelled at half resolution when the mask is the half-resolution one doubled (a quarter of the pixels, the
  // same components; only their numbering may differ, which decides no more than which of two reasons is given).
  const int scale = !fg.half_mask.empty() && fg.half_mask.cols * 2 == fg.mask.cols && fg.half_mask.rows * 2 == fg.mask.rows ? 2 : 1;
  cv::Mat cc, stats, centroids;
  const int n = Components(scale == 2 ? fg.half_mask : fg.mask, cc, stats, centroids);
  const int w = fg.mask.cols, h = fg.mask.rows;
  // Contact with the edge is measured on a ring 5 mm inside it (the outermost millimetres are noisy: the board's
  // cut, its shadow, a registration error of a pixel). Where the table was watched, a contact counts only when
  // the table just outside changed too (tokens in a row along the edge leave the table as it was).
  const int in = std::max(1, static_cast<int>(5 * px_per_mm));
  auto table_changed_beyond = [&](int x, int y) {
    if (!table.watched) return true;
    // Board pixel -> ring pixel; look 4..16 mm out from the board's edge, straight out.
    const double u = (x + 0.5) / px_per_mm + kRingMm, v = (y + 0.5) / px_per_mm + kRingMm;
    const int cols = table.change.cols, rows = table.change.rows;
    for (double d = kCutMm; d <= 16; d += 1) {
      int tu = cvRound(u), tv = cvRound(v);
      if (y == in) tv = cvRound(kRingMm - d);
      else if (y == h - 1 - in) tv = rows - 1 - cvRound(kRingMm - d);
      else if (x == in) tu = cvRound(kRingMm - d);
      else tu = cols - 1 - cvRound(kRingMm - d);
      if (tu >= 0 && tv >= 0 && tu < cols && tv < rows && table.change.at<uchar>(tv, tu)) return true;
    }
    return false;
  };
  std::vector<int> edge_px(n, 0);
  auto contact = [&](int x, int y) {
    const int l = cc.at<int>(y / scale, x / scale);
    if (l > 0 && table_changed_beyond(x, y)) ++edge_px[l];
  };
  for (int x = in; x < w - in; ++x) contact(x, in), contact(x, h - 1 - in);
  for (int y = in + 1; y < h - 1 - in; ++y) contact(in, y), contact(w - 1 - in, y);
  for (int i = 1; i < n; ++i) {
    const double area_mm2 = stats.at<int>(i, cv::CC_STAT_AREA) * scale * scale / (px_per_mm * px_per_mm);
    const double edge_mm = edge_px[i] / px_per_mm;
    // A token at the edge touches it along at most its width (~25 mm); an arm crosses it wide.
    if (edge_mm > (table.watched ? 20 : 45) || area_mm2 > max_area_mm2) {
      // A still photo under a weak, wide glare was once read so (docs/vision.md, Weak): the reason says what to do.
      if (why)
        *why = area_mm2 > max_area_mm2 ? "a large shape over the board (if nothing is there, a lamp's reflection too wide to see through: move the lamp)"
                                       : "something reaches over the board's edge";
      return true;
    }
  }
  return false;
}

}  // namespace swref::vision
