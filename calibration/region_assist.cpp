// The region assist (board_setup.h, AssistLayout): the regions grown from one point each over the rectified empty
// board, up to its printed borders.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <queue>
#include <tuple>

#include <opencv2/imgproc.hpp>

#include "calibration/board_setup.h"
#include "engine/map.h"

namespace swref::calibration {
namespace {

template <typename T>
using AssistResult = engine::Result<T>;

// A sticker (a corner marker with its white margin) hides the borders under it. Its square is cleared, and each
// border line that runs into the square is continued straight, in the direction of its last 8 mm, until it meets
// another continued border or leaves the square: the regions under the sticker keep the shape their visible parts
// suggest. `lines` is a 0/255 mask.
void ContinueUnderSticker(cv::Mat& lines, const cv::Rect& square, double px_per_mm) {
  const cv::Rect board(0, 0, lines.cols, lines.rows);
  const cv::Rect inside = square & board;
  if (inside.empty()) return;
  lines(inside).setTo(0);
  // Where lines enter: their pieces in a thin ring around the square (away from the board's edge, which is no
  // printed line).
  const int ring = std::max(2, cvRound(1.0 * px_per_mm));
  const cv::Rect outer = cv::Rect(inside.x - ring, inside.y - ring, inside.width + 2 * ring, inside.height + 2 * ring) &
                         cv::Rect(ring, ring, lines.cols - 2 * ring, lines.rows - 2 * ring);
  if (outer.empty()) return;
  cv::Mat entries = lines(outer).clone();
  entries((inside & outer) - outer.tl()).setTo(0);
  cv::Mat entry_cc, stats, centroids;
  const int n = cv::connectedComponentsWithStats(entries, entry_cc, stats, centroids, 8, CV_32S);
  const double reach = 8 * px_per_mm;
  const int thick = std::max(1, cvRound(1.0 * px_per_mm));
  cv::Mat drawn(lines.size(), CV_32S, cv::Scalar(0));  // which continuation drew a pixel
  const cv::Point2d centre(inside.x + inside.width / 2.0, inside.y + inside.height / 2.0);
  for (int i = 1; i < n; ++i) {
    const cv::Point2d at(centroids.at<double>(i, 0) + outer.x, centroids.at<double>(i, 1) + outer.y);
    // The line's visible pixels within 8 mm of where it enters, connected to its entry piece.
    const cv::Rect near = cv::Rect(cvFloor(at.x - reach), cvFloor(at.y - reach), cvCeil(2 * reach) + 1, cvCeil(2 * reach) + 1) & board;
    cv::Mat piece = lines(near).clone();
    piece((inside & near) - near.tl()).setTo(0);
    cv::Mat piece_cc;
    cv::connectedComponents(piece, piece_cc, 8, CV_32S);
    int label = 0;
    for (int y = 0; y < entry_cc.rows && !label; ++y) {
      for (int x = 0; x < entry_cc.cols && !label; ++x) {
        const cv::Point q(x + outer.x, y + outer.y);
        if (entry_cc.at<int>(y, x) == i && q.inside(near)) label = piece_cc.at<int>(q - near.tl());
      }
    }
    if (label == 0) continue;
    std::vector<cv::Point2f> pts;
    cv::Point2d mean(0, 0);
    for (int y = 0; y < piece_cc.rows; ++y) {
      for (int x = 0; x < piece_cc.cols; ++x) {
        const cv::Point2d q(x + near.x, y + near.y);
        if (piece_cc.at<int>(y, x) == label && cv::norm(q - at) <= reach) pts.emplace_back(q), mean += q;
      }
    }
    if (pts.size() < 3 * px_per_mm) continue;  // a speck, not a line
    mean *= 1.0 / pts.size();
    cv::Vec4f fit;
    cv::fitLine(pts, fit, cv::DIST_L2, 0, 0.01, 0.01);
    cv::Point2d dir(fit[0], fit[1]);
    if ((at - mean).dot(dir) < 0) dir = -dir;  // from the visible line into the square
    if ((centre - at).dot(dir) <= 0) continue;  // a line running along the square, not into it
    cv::Point last(cvRound(at.x), cvRound(at.y));
    bool entered = false;
    for (double t = 0.5; t < inside.width + inside.height + 2 * ring; t += 0.5) {
      const cv::Point q(cvRound(at.x + dir.x * t), cvRound(at.y + dir.y * t));
      if (q == last) continue;
      if (!q.inside(board) || (entered && !q.inside(inside))) break;
      entered = entered || q.inside(inside);
      const int other = drawn.at<int>(q);
      cv::line(lines, last, q, cv::Scalar(255), thick);
      if (other != 0 && other != i) break;  // met another continued border
      cv::line(drawn, last, q, cv::Scalar(i), thick);
      last = q;
    }
  }
}

}  // namespace

AssistResult<Layout> AssistLayout(const cv::Mat& rectified, double px_per_mm, cv::Size2d board_mm, const std::map<int, cv::Point2d>& seeds_mm,
                       const engine::Map& map, const std::optional<LayoutMarkers>& markers) {
  // Every region needs its point.
  std::vector<int> missing;
  for (int r = 0; r < map.size(); ++r) {
    if (!seeds_mm.count(r)) missing.push_back(r);
  }
  for (const auto& [id, p] : seeds_mm) {
    if (!map.Valid(id)) return AssistResult<Layout>::Error("points: region " + std::to_string(id) + " is not a region of map " + map.key);
    if (p.x < 0 || p.y < 0 || p.x >= board_mm.width || p.y >= board_mm.height)
      return AssistResult<Layout>::Error("points: the point of region " + std::to_string(id) + " lies outside the board");
  }
  if (!missing.empty()) return AssistResult<Layout>::Error("points: no point for region(s) " + engine::IdList(missing) + " (one point inside every region)");

  // Elevation: thin dark lines (a black-hat of the lightness over ~3 mm) weighted by how dark they are. The
  // printed borders are the darkest, most continuous ones; flooding from the seeds in order of elevation makes the
  // floods meet on them.
  cv::Mat lab;
  cv::cvtColor(rectified, lab, cv::COLOR_BGR2Lab);
  cv::Mat l;
  cv::extractChannel(lab, l, 0);
  cv::GaussianBlur(l, l, cv::Size(), 0.35 * px_per_mm);
  const int k = std::max(3, cvRound(5 * px_per_mm) | 1);
  cv::Mat blackhat;
  cv::morphologyEx(l, blackhat, cv::MORPH_BLACKHAT, cv::getStructuringElement(cv::MORPH_ELLIPSE, {k, k}));
  cv::Mat elev;
  {
    cv::Mat bh, dark;
    blackhat.convertTo(bh, CV_32F, 1.0 / 255);
    l.convertTo(dark, CV_32F, -1.0 / 255, 1.0);
    elev = bh.mul(dark);
    cv::normalize(elev, elev, 0, 1, cv::NORM_MINMAX);
    // A line is a pixel markedly darker than the paint around it: its black-hat relative to the lightness that
    // the closing restores there (a contrast ratio). The ratio, unlike the black-hat itself, finds a border as
    // well where it runs through dark paint (forest, sea) as through light paint; the forest's tree shading stays
    // mostly below it.
    cv::Mat lines;
    {
      cv::Mat closed;
      cv::add(l, blackhat, closed, cv::noArray(), CV_32F);
      cv::Mat ratio = bh * 255 / cv::max(closed, 1.0f);
      lines = ratio > 0.28f;
    }
    // Borders are inked: among thin lines they are the dark ones. Terrain strokes (furrows, contours) are
    // mid-toned and would otherwise cut a region into strips. The cut: halfway from the darkest 3% of the board
    // to its median lightness.
    {
      std::vector<uchar> v(l.begin<uchar>(), l.end<uchar>());
      std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
      const int median = v[v.size() / 2];
      std::nth_element(v.begin(), v.begin() + v.size() * 3 / 100, v.end());
      const int dark = v[v.size() * 3 / 100];
      lines &= l < (dark + median) / 2;
    }
    // Bridge the small breaks where a border runs faint between two light regions.
    const int bridge = std::max(3, cvRound(2.5 * px_per_mm) | 1);
    cv::morphologyEx(lines, lines, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_ELLIPSE, {bridge, bridge}));
    // Keep the long lines: the printed borders form one network across the board, while terrain motifs and
    // symbols (a ring around a lost-tribe mark, furrows, ridges) are short. Lines whose connected piece spans
    // less than 30 mm are dropped.
    cv::Mat cc, stats, centroids;
    const int n = cv::connectedComponentsWithStats(lines, cc, stats, centroids, 8, CV_32S);
    std::vector<uchar> keep(n, 0);
    for (int i = 1; i < n; ++i) {
      keep[i] = std::max(stats.at<int>(i, cv::CC_STAT_WIDTH), stats.at<int>(i, cv::CC_STAT_HEIGHT)) >= 30 * px_per_mm;
    }
    for (int y = 0; y < cc.rows; ++y) {
      const int* c = cc.ptr<int>(y);
      uchar* o = lines.ptr<uchar>(y);
      for (int x = 0; x < cc.cols; ++x) o[x] = keep[c[x]] ? 255 : 0;
    }
    // Markers stuck on the board are not borders: their squares are cleared, and the borders that run under them
    // are continued, so that the regions there keep their shape (a narrow region reaching the board's edge under
    // a sticker still reaches it).
    if (markers) {
      const double quiet = markers->size_mm / 6 + 1;
      for (const auto& [id, c] : markers->corners) {
        const cv::Rect r(cvFloor((c.x - quiet) * px_per_mm), cvFloor((c.y - quiet) * px_per_mm),
                         cvCeil((markers->size_mm + 2 * quiet) * px_per_mm), cvCeil((markers->size_mm + 2 * quiet) * px_per_mm));
        ContinueUnderSticker(lines, r, px_per_mm);
      }
    }
    cv::Mat long_lines;
    lines.convertTo(long_lines, CV_32F, 1.0 / 255);
    // The board's edge is a border too.
    cv::rectangle(long_lines, cv::Rect(0, 0, long_lines.cols, long_lines.rows), cv::Scalar(1), 2);
    // A border line may stop short of another (a faint join, the board's rim): the ground rises towards every
    // line, so that two floods meet on the saddle that continues a broken line rather than anywhere along it.
    cv::Mat off_line, dist;
    cv::Mat(long_lines < 0.5f).convertTo(off_line, CV_8U);
    cv::distanceTransform(off_line, dist, cv::DIST_L2, 5);
    cv::Mat ramp = cv::max(0, 1 - dist / (12 * px_per_mm));
    cv::GaussianBlur(long_lines, long_lines, cv::Size(), 0.5 * px_per_mm);
    // Lines dominate, their raw strength orders the pixels within them; the ramp shapes the ground between.
    elev = long_lines.mul(1 + elev) * 1000 + ramp * 300;
  }
  // Marker-controlled priority flood.
  cv::Mat labels(rectified.size(), CV_32S, cv::Scalar(-1));
  // Elevation first; among equals, first come first served, so that floods over flat ground advance evenly from
  // every seed (a tie broken by pixel index would let low-numbered regions run over the others).
  using Item = std::tuple<float, int64_t, int>;  // elevation, arrival order, pixel index
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  int64_t order = 0;
  const int w = labels.cols, h = labels.rows;
  for (const auto& [id, p] : seeds_mm) {
    const cv::Point c(std::clamp(cvFloor(p.x * px_per_mm), 0, w - 1), std::clamp(cvFloor(p.y * px_per_mm), 0, h - 1));
    if (labels.at<int>(c) >= 0) return AssistResult<Layout>::Error("points: regions " + std::to_string(labels.at<int>(c)) + " and " + std::to_string(id) + " have the same point");
    labels.at<int>(c) = id;
  }
  // A point is often clicked on a region's symbol, whose outline may touch a border and so count as a line: a
  // flood starting on it would wait there while its neighbours run over its region. Each flood starts from a
  // disc of 8 mm around its point instead (shared with a nearer point by distance), wide enough to span a symbol.
  {
    const double radius = 8 * px_per_mm;
    cv::Mat nearest(labels.size(), CV_32F, cv::Scalar(std::numeric_limits<float>::max()));
    for (const auto& [id, p] : seeds_mm) {
      const cv::Point2d c(p.x * px_per_mm - 0.5, p.y * px_per_mm - 0.5);
      for (int y = std::max(0, cvFloor(c.y - radius)); y <= std::min(h - 1, cvCeil(c.y + radius)); ++y) {
        for (int x = std::max(0, cvFloor(c.x - radius)); x <= std::min(w - 1, cvCeil(c.x + radius)); ++x) {
          const float d = static_cast<float>(std::hypot(x - c.x, y - c.y));
          if (d <= radius && d < nearest.at<float>(y, x)) nearest.at<float>(y, x) = d, labels.at<int>(y, x) = id;
        }
      }
    }
    const int* lab = labels.ptr<int>();
    for (int i = 0; i < w * h; ++i) {
      if (lab[i] >= 0) queue.emplace(0.0f, order++, i);
    }
  }
  int* lab_data = labels.ptr<int>();
  const float* elev_data = elev.ptr<float>();
  while (!queue.empty()) {
    const auto [e, seq, i] = queue.top();
    queue.pop();
    const int x = i % w, y = i / w, id = lab_data[i];
    const int nb[4] = {x > 0 ? i - 1 : -1, x + 1 < w ? i + 1 : -1, y > 0 ? i - w : -1, y + 1 < h ? i + w : -1};
    for (int j : nb) {
      if (j < 0 || lab_data[j] >= 0) continue;
      lab_data[j] = id;
      queue.emplace(std::max(e, elev_data[j]), order++, j);  // a flood never goes down a ridge it has climbed
    }
  }
  // Outlines: each region's mask grown by one pixel so that neighbours overlap a hair and share their border.
  Layout layout;
  layout.map = map.key;
  layout.board_mm = board_mm;
  layout.regions.resize(map.size());
  for (int r = 0; r < map.size(); ++r) {
    cv::Mat mask = labels == r;
    cv::dilate(mask, mask, cv::Mat());
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(mask, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE);
    if (contours.empty()) return AssistResult<Layout>::Error("region " + std::to_string(r) + ": nothing grew from its point");
    const auto& biggest = *std::max_element(contours.begin(), contours.end(), [](const auto& a, const auto& b) {
      return cv::contourArea(a) < cv::contourArea(b);
    });
    std::vector<cv::Point> poly;
    cv::approxPolyDP(biggest, poly, 0.4 * px_per_mm, true);
    // Pixel centres to mm; a vertex in the outermost pixel goes onto the board's edge itself.
    auto snap = [&](int v, int n, double size) { return v <= 0 ? 0.0 : v >= n - 1 ? size : (v + 0.5) / px_per_mm; };
    for (const auto& p : poly) layout.regions[r].emplace_back(snap(p.x, w, board_mm.width), snap(p.y, h, board_mm.height));
  }
  return layout;
}

}  // namespace swref::calibration
