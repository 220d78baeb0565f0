// Step 2 of the pipeline: the frame in board coordinates (one cv::remap through the pose's maps), and its light
// matched to the empty-board reference, so that the board looks as it did at setup wherever nothing lies on it.
//
// The light is matched with a smooth gain per channel: frame and reference are averaged over 8 mm cells, their
// ratio blurred over a few cells is the gain there. Twice: first every cell counts, then only the pixels the
// first gains explain (tokens, arms and glare get no say). A lamp's colour, a gradient and vignetting are all
// slow across the board; a token is not.
#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "calibration/token_model.h"
#include "vision/observer.h"

namespace swref::vision {
namespace {

constexpr int kCell = 16;  // board pixels per light cell (8 mm at 2 px/mm)

cv::Mat Shrink(const cv::Mat& f32) {
  cv::Mat small;
  cv::resize(f32, small, cv::Size(std::max(4, f32.cols / kCell), std::max(4, f32.rows / kCell)), 0, 0, cv::INTER_AREA);
  return small;
}

// The light's colour (each channel's share of the gain) is smoothed more widely than its brightness: blurred
// again with sigma kChromaCells (about 4.5 cells, 36 mm, in all with the gain's own blur), since a lamp's colour
// changes more slowly across the board than its brightness, and a cluster of tokens of one colour (the ghouls'
// magenta filling a region) must not be taken for a change of it. Cells with no gain (glare left out of the fit
// far around) take no part in their neighbours' colour.
cv::Mat SmoothChroma(const cv::Mat& gain) {
  constexpr double kChromaCells = 2;  // 16 mm
  auto blur = [](const cv::Mat& m) {
    cv::Mat out;
    cv::GaussianBlur(m, out, cv::Size(), kChromaCells, kChromaCells, cv::BORDER_REPLICATE);
    return out;
  };
  std::vector<cv::Mat> ch;
  cv::split(gain, ch);
  const cv::Mat brightness = (ch[0] + ch[1] + ch[2]) / 3;
  cv::Mat valid;
  cv::Mat(brightness > 1e-3).convertTo(valid, CV_32F, 1.0 / 255);
  const bool all_valid = static_cast<size_t>(cv::countNonZero(valid)) == valid.total();
  const cv::Mat weight = all_valid ? cv::Mat() : blur(valid) + 1e-6;
  for (cv::Mat& c : ch) {
    cv::Mat share;
    cv::divide(c, brightness + 1e-6, share);
    if (all_valid) {
      share = blur(share);
    } else {
      cv::divide(blur(share.mul(valid)), weight, share);
    }
    c = brightness.mul(share);
  }
  cv::Mat out;
  cv::merge(ch, out);
  return out;
}

// The gain field over light cells: the frame's cells over the reference's, blurred (its colour more widely than
// its brightness), in three rounds, each giving little say to the cells the previous gains do not explain
// (tokens, arms) and none to `exclude` (glare).
//
// The blur is wider than a cluster of tokens: a lamp's light, its gradient and the lens's vignetting change over
// hundreds of millimetres, while a region full of tokens is 50-100 mm across. A field free to bend within 16 mm
// (sigma 2 cells, as before) followed such a cluster: a row of magenta ghouls was taken for a change of the light
// and matched away, each ghoul then fitted about 180 Lab^2 (a clean view fits about 10), and the cluster was left
// as foreground no token explains. On the accuracy suite (region error), with the colour blurred again (sigma 4):
// sigma 1.5 cells 2.35 %, 2 cells 1.68 %, 3 cells 1.29 %, 4 cells 1.14 %, 5 cells 1.10 %, 6 cells 1.13 %; at 4
// cells with the colour blurred again with sigma 2 cells (as now) 1.10 %, with no more than the brightness 1.15 %.
constexpr double kGainBlurCells = 4;  // 32 mm

cv::Mat FitGain(const cv::Mat& small, const cv::Mat& reference_small, const cv::Mat& exclude, double* light_change) {
  cv::Mat weight(small.size(), CV_32F, cv::Scalar(1));
  cv::Mat gain;
  for (int round = 0; round < 3; ++round) {
    if (!exclude.empty()) weight.setTo(0, exclude);
    cv::Mat w3, num, den;
    cv::merge(std::vector<cv::Mat>{weight, weight, weight}, w3);
    cv::GaussianBlur(small.mul(w3), num, cv::Size(), kGainBlurCells);
    cv::GaussianBlur(reference_small.mul(w3), den, cv::Size(), kGainBlurCells);
    cv::divide(num, den + cv::Scalar::all(1e-3), gain);
    gain = SmoothChroma(gain);
    if (round == 0 && light_change) {
      const cv::Scalar g = cv::mean(gain);
      *light_change = std::max({std::abs(std::log(std::max(g[0], 1e-3))), std::abs(std::log(std::max(g[1], 1e-3))),
                                std::abs(std::log(std::max(g[2], 1e-3)))});
    }
    // How far each cell is from what the gains predict, relative to its brightness.
    cv::Mat predicted = reference_small.mul(gain), diff;
    cv::absdiff(predicted, small, diff);
    cv::divide(diff, predicted + cv::Scalar::all(8), diff);
    std::vector<cv::Mat> ch;
    cv::split(diff, ch);
    const cv::Mat d = cv::max(cv::max(ch[0], ch[1]), ch[2]);
    weight = cv::Mat(d < 0.08);
    weight.convertTo(weight, CV_32F, 1.0 / 255);
    weight += 0.01f;
  }
  return gain;
}

// Glare cells (kGlareCellPx) where a token lies: a disc around every clear outline seed.
cv::Mat ObjectCells(const std::vector<OutlineSeed>& seeds, cv::Size cells) {
  constexpr float kClearVotes = 30;        // a seed this clear is a token (OutlineSeeds: a full outline gives ~60)
  constexpr double kDiscMm = 15;           // the token and its rim
  cv::Mat m = cv::Mat::zeros(cells, CV_8U);
  const double scale = 1.0 / kGlareCellPx;  // board pixels -> cells
  for (const OutlineSeed& s : seeds) {
    if (s.votes < kClearVotes) break;
    const cv::Point c(cvRound((s.centre_px.x + 0.5) * scale - 0.5), cvRound((s.centre_px.y + 0.5) * scale - 0.5));
    cv::circle(m, c, cvRound(kDiscMm * kBoardPxPerMm * scale), cv::Scalar(255), cv::FILLED);
  }
  return m;
}

// The frame divided by the gain field (float BGR 0..255).
cv::Mat Apply(const cv::Mat& cur, const cv::Mat& gain) {
  cv::Mat inv;
  cv::divide(cv::Scalar::all(1.0), gain, inv);
  cv::Mat field;
  cv::resize(inv, field, cur.size(), 0, 0, cv::INTER_LINEAR);
  cv::multiply(cur, field, field);  // in place: no third board-sized image
  return field;
}

}  // namespace

namespace {
// A cell field (CV_32FC3 over the board) at a board pixel, bilinear.
cv::Vec3f FieldAt(const cv::Mat& field, cv::Size board, cv::Point2d board_px, cv::Vec3f none) {
  if (field.empty()) return none;
  const double x = std::clamp(board_px.x / board.width * field.cols - 0.5, 0.0, field.cols - 1.0);
  const double y = std::clamp(board_px.y / board.height * field.rows - 0.5, 0.0, field.rows - 1.0);
  const int x0 = static_cast<int>(x), y0 = static_cast<int>(y), x1 = std::min(x0 + 1, field.cols - 1), y1 = std::min(y0 + 1, field.rows - 1);
  const float fx = static_cast<float>(x - x0), fy = static_cast<float>(y - y0);
  const cv::Vec3f top = field.at<cv::Vec3f>(y0, x0) * (1 - fx) + field.at<cv::Vec3f>(y0, x1) * fx;
  const cv::Vec3f bottom = field.at<cv::Vec3f>(y1, x0) * (1 - fx) + field.at<cv::Vec3f>(y1, x1) * fx;
  return top * (1 - fy) + bottom * fy;
}
}  // namespace

cv::Vec3f GainAt(const Rectified& frame, cv::Point2d board_px) { return FieldAt(frame.gain, frame.bgr.size(), board_px, {1, 1, 1}); }

float GlareAt(const Rectified& frame, cv::Point2d board_px) {
  const cv::Vec3f added = FieldAt(frame.glare_added, frame.bgr.size(), board_px, {0, 0, 0});
  return std::max(0.0f, added.dot(frame.glare_colour));
}

cv::Vec3f CeilingAt(const Rectified& frame, cv::Point2d board_px) {
  if (frame.ceiling.empty()) return {255, 255, 255};
  const cv::Mat& c = frame.ceiling;
  const double x = std::clamp(board_px.x / frame.bgr.cols * c.cols - 0.5, 0.0, c.cols - 1.0);
  const double y = std::clamp(board_px.y / frame.bgr.rows * c.rows - 0.5, 0.0, c.rows - 1.0);
  const int x0 = static_cast<int>(x), y0 = static_cast<int>(y), x1 = std::min(x0 + 1, c.cols - 1), y1 = std::min(y0 + 1, c.rows - 1);
  const float fx = static_cast<float>(x - x0), fy = static_cast<float>(y - y0);
  const cv::Vec3f top = c.at<cv::Vec3f>(y0, x0) * (1 - fx) + c.at<cv::Vec3f>(y0, x1) * fx;
  const cv::Vec3f bottom = c.at<cv::Vec3f>(y1, x0) * (1 - fx) + c.at<cv::Vec3f>(y1, x1) * fx;
  return top * (1 - fy) + bottom * fy;
}

cv::Mat LightReference(const cv::Mat& reference_board) {
  cv::Mat f;
  reference_board.convertTo(f, CV_32FC3);
  return Shrink(f);
}

cv::Mat GlareCells(const cv::Mat& reference_board) {
  cv::Mat r, cells;
  reference_board.convertTo(r, CV_32FC3);
  cv::resize(r, cells, cv::Size(std::max(4, r.cols / kGlareCellPx), std::max(4, r.rows / kGlareCellPx)), 0, 0, cv::INTER_AREA);
  return cells;
}

cv::Mat SaturatedCells(const cv::Mat& raw, cv::Size cells) {
  if (raw.cols == cells.width * kGlareCellPx && raw.rows == cells.height * kGlareCellPx) {
    // Whole cells: each one's share counted directly (what INTER_AREA gives, in one pass over the 8-bit image).
    constexpr int n = kGlareCellPx;
    cv::Mat sat(cells, CV_32FC3);
    std::vector<int> count(static_cast<size_t>(cells.width) * 3);
    for (int cy = 0; cy < cells.height; ++cy) {
      std::fill(count.begin(), count.end(), 0);
      for (int y = cy * n; y < (cy + 1) * n; ++y) {
        const uchar* p = raw.ptr<uchar>(y);
        for (int cx = 0; cx < cells.width; ++cx, p += 3 * n) {
          int* to = &count[static_cast<size_t>(cx) * 3];
          for (int x = 0; x < 3 * n; x += 3) to[0] += p[x] >= kClippedAt, to[1] += p[x + 1] >= kClippedAt, to[2] += p[x + 2] >= kClippedAt;
        }
      }
      float* out = sat.ptr<float>(cy);
      for (size_t i = 0; i < count.size(); ++i) out[i] = static_cast<float>(count[i]) / (n * n);
    }
    return sat;
  }
  cv::Mat full, sat;
  cv::compare(raw, cv::Scalar::all(kClippedAt), full, cv::CMP_GE);
  full.convertTo(full, CV_32FC3, 1.0 / 255);
  cv::resize(full, sat, cells, 0, 0, cv::INTER_AREA);
  return sat;
}

cv::Mat FindGlare(const cv::Mat& matched, const cv::Mat& reference_cells, const cv::Mat& saturated, cv::Mat* corrected, cv::Mat* taken,
                  const cv::Mat& objects) {
  // Judged on 2 mm cells: the board's fine texture (stripes, tree crowns) averages out, a token does not.
  constexpr double kCellMm = kGlareCellPx / kBoardPxPerMm;
  const cv::Size cells = reference_cells.size();
  cv::Mat m;
  const cv::Mat& ref = reference_cells;
  cv::resize(matched, m, cells, 0, 0, cv::INTER_AREA);
  // A cell where the camera saturated a channel anywhere may have gained less there.
  const cv::Mat& sat = saturated;
  const cv::Mat d = m - ref;
  // The colour glare adds, one for the whole frame: the median direction of the cells brighter in every channel.
  std::vector<float> dirs[3];
  for (int y = 0; y < d.rows; ++y) {
    const cv::Vec3f* dv = d.ptr<cv::Vec3f>(y);
    for (int x = 0; x < d.cols; ++x) {
      if (dv[x][0] > 12 && dv[x][1] > 12 && dv[x][2] > 12) {
        const float len = static_cast<float>(cv::norm(dv[x]));
        for (int c = 0; c < 3; ++c) dirs[c].push_back(dv[x][c] / len);
      }
    }
  }
  cv::Vec3f k(0.577f, 0.577f, 0.577f);
  if (dirs[0].size() > 50) {
    for (int c = 0; c < 3; ++c) {
      std::nth_element(dirs[c].begin(), dirs[c].begin() + dirs[c].size() / 2, dirs[c].end());
      k[c] = dirs[c][dirs[c].size() / 2];
    }
    k /= static_cast<float>(cv::norm(k));
  }
  // How much of that colour each cell gained, and whether what it gained is that colour (a saturated channel may
  // have gained less).
  cv::Mat alpha(d.size(), CV_32F), fits(d.size(), CV_8U);
  for (int y = 0; y < d.rows; ++y) {
    const cv::Vec3f* dv = d.ptr<cv::Vec3f>(y);
    const cv::Vec3f* st = sat.ptr<cv::Vec3f>(y);
    float* a = alpha.ptr<float>(y);
    uchar* f = fits.ptr<uchar>(y);
    for (int x = 0; x < d.cols; ++x) {
      // A saturated channel gained less than the glare added: the gain is read from the others when one is not.
      // (Read from all three, a glare over a yellow field clipped in red and green measured half what it added; the
      // field, taken back to the reference's light still too bright in blue, stayed foreground with the tokens on
      // it. On the three accuracy suites, with instances.cpp kWhiteShare: region errors 36, 39 and 47 -> 32, 42
      // and 42, wrong and not flagged 1, 0 and 0 as before, regions flagged 478, 352 and 332 -> 458, 336 and 324.)
      float num = 0, den = 0;
      for (int c = 0; c < 3; ++c) {
        if (st[x][c] > 0.05f) continue;
        num += dv[x][c] * k[c], den += k[c] * k[c];
      }
      const float al = den > 0.1f ? num / den : dv[x].dot(k);
      float r2 = 0;
      for (int c = 0; c < 3; ++c) {
        float rc = dv[x][c] - al * k[c];
        if (st[x][c] > 0.05f) rc = std::min(rc, 0.0f);
        r2 += rc * rc;
      }
      a[x] = al;
      f[x] = al > 15 && std::sqrt(r2) < 0.25f * al + 6 ? 255 : 0;
    }
  }
  // Glare is smooth: a token's edges and symbol make the gain jump from cell to cell, glare does not. A strong
  // glare may change faster (its fall-off is as steep as it is bright), and what the gains took of it leaves the
  // board's texture in it in proportion: a cell may change by a quarter of what it gained. (An absolute 10 left
  // most of a strong glare's cells out; on the accuracy suite 0.15 gave no gain, 0.25 and 0.35 about the same.)
  constexpr float kGlareSteepness = 0.25f;
  cv::Mat gx, gy, grad;
  cv::Sobel(alpha, gx, CV_32F, 1, 0, 3, 0.125);
  cv::Sobel(alpha, gy, CV_32F, 0, 1, 3, 0.125);
  cv::magnitude(gx, gy, grad);
  fits &= grad < cv::max(alpha * kGlareSteepness, 10);
  // A white token gains light in every channel too, and is flat inside: where a token's outline was seen, the
  // cells are the token's, not the board's.
  if (!objects.empty()) fits.setTo(0, objects);
  cv::morphologyEx(fits, fits, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, {3, 3}));
  // And large: a patch of light, not a token or two.
  cv::Mat glare_cells = KeepComponents(fits, [&](int area) { return area * kCellMm * kCellMm >= 1500; });
  cv::Mat glare;
  if (cv::countNonZero(glare_cells) == 0) return cv::Mat::zeros(matched.size(), CV_8U);
  cv::morphologyEx(glare_cells, glare_cells, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_ELLIPSE, {5, 5}));
  // The light each patch adds: a lamp's reflection falls off smoothly from its brightest point, so each patch is
  // fitted with a Gaussian blob (a quadratic in log brightness, weighted least squares over its cells). The blob
  // reaches where the cells failed the test (over a striped field, over tokens): the light is taken off there too.
  cv::Mat fill = cv::Mat::zeros(cells, CV_32F);
  // The light each cell's surroundings gained (a grey closing of the gains, kDipMm across): a cell that gained less
  // than the cells around it holds something darker than the board under the same light (a dark token, a hole), and
  // that much is taken off it. Taken off only as far as the cell itself gained, the glare left such a piece the board's
  // own colour, and it was missed with its region read with confidence 1 (the fourth accuracy suite's 4p photo 11: a
  // hole). On the three accuracy suites: region errors 28, 35 and 33 -> 25, 31 and 33, wrong and not flagged 0, 0, 0
  // as before, flagged 486, 359 and 332 -> 483, 358 and 332, boards exact 91.2, 91.0 and 92.3 -> 91.8, 92.0 and
  // 92.6 %; the fourth suite 44 -> 41 wrong, 4 -> 2 not flagged. (Up to the fitted blob wherever a patch encloses
  // the cell, 40 mm: 27 wrong on the first suite, 11 more regions flagged: the blob overshoots most patches by about
  // half, and the board under it came out dark.) Stage test Observer.DarkPiecesUnderGlareAreFound: 9 -> 13 of 14.
  constexpr double kDipMm = 40;
  constexpr double kGlareReachMm = 20;  // how far from its cells a patch's light is taken off (below)
  cv::Mat around = cv::Mat::zeros(cells, CV_32F);
  {
    // Only around the patches: what is read beyond kGlareReachMm of them, and kDipMm beyond that, is never used.
    const int dip = cvRound(kDipMm / kCellMm) | 1;
    const int grow = cvRound((kGlareReachMm + kDipMm) / kCellMm);
    const cv::Rect b = cv::boundingRect(glare_cells);
    const cv::Rect roi = cv::Rect(b.x - grow, b.y - grow, b.width + 2 * grow, b.height + 2 * grow) & cv::Rect(cv::Point(), cells);
    cv::morphologyEx(alpha(roi), around(roi), cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_ELLIPSE, {dip, dip}));
  }
  {
    cv::Mat cc, stats, centroids;
    const int count = Components(glare_cells, cc, stats, centroids);
    for (int i = 1; i < count; ++i) {
      double peak = 0;
      const cv::Point2d c0(centroids.at<double>(i, 0), centroids.at<double>(i, 1));
      // Twice: the second round gives cells far from the first blob (something on the board) little say.
      cv::Mat coef;
      bool solved = false;
      for (int round = 0; round < 2; ++round) {
        cv::Mat a_mat = cv::Mat::zeros(6, 6, CV_64F), b_vec = cv::Mat::zeros(6, 1, CV_64F);
        const double* prev = round > 0 && solved ? coef.ptr<double>(0) : nullptr;
        for (int y = 0; y < cc.rows; ++y) {
          const int* l = cc.ptr<int>(y);
          const float* al = alpha.ptr<float>(y);
          const uchar* obj = objects.empty() ? nullptr : objects.ptr<uchar>(y);
          for (int x = 0; x < cc.cols; ++x) {
            if (l[x] != i || al[x] < 8 || (obj && obj[x])) continue;
            const double u = (x - c0.x) / 10, v = (y - c0.y) / 10;
            const double f[6] = {1, u, v, u * u, u * v, v * v};
            double w = al[x];
            if (prev) {
              const double fitted = prev[0] + prev[1] * u + prev[2] * v + prev[3] * u * u + prev[4] * u * v + prev[5] * v * v;
              const double off = (std::log(al[x]) - fitted) / 0.15;
              w /= 1 + off * off;
            }
            for (int r = 0; r < 6; ++r) {
              for (int q = 0; q < 6; ++q) a_mat.at<double>(r, q) += w * f[r] * f[q];
              b_vec.at<double>(r) += w * f[r] * std::log(al[x]);
            }
            if (round == 0) peak = std::max(peak, static_cast<double>(al[x]));
          }
        }
        solved = cv::solve(a_mat, b_vec, coef, cv::DECOMP_SVD);
        if (!solved) break;
      }
      const double* q = coef.ptr<double>(0);
      // A blob: falling off in every direction, its top no brighter than twice the brightest cell seen.
      const bool blob = solved && q[3] < 0 && q[5] < 0 && 4 * q[3] * q[5] - q[4] * q[4] > 0;
      if (!blob) {
        fill.setTo(0, cc == i);  // left as found: the patch only
        cv::Mat own = cc == i;
        alpha.copyTo(fill, own);
        continue;
      }
      // Only near the patch (within 20 mm of its cells: a glare's halo is wide), and never more than a cell
      // gained plus a margin (a blob fitted to a long patch would reach far along it; a dark token under the glare
      // gained less).
      cv::Mat near = cc == i;
      const int r = cvRound(2 * kGlareReachMm / kCellMm) | 1;
      cv::dilate(near, near, cv::getStructuringElement(cv::MORPH_ELLIPSE, {r, r}));
      for (int y = 0; y < cells.height; ++y) {
        float* out = fill.ptr<float>(y);
        const uchar* inside = near.ptr<uchar>(y);
        const float* seen = alpha.ptr<float>(y);
        const float* level = around.ptr<float>(y);
        const uchar* obj = objects.empty() ? nullptr : objects.ptr<uchar>(y);
        for (int x = 0; x < cells.width; ++x) {
          if (!inside[x]) continue;
          const double u = (x - c0.x) / 10, v = (y - c0.y) / 10;
          double value = std::exp(q[0] + q[1] * u + q[2] * v + q[3] * u * u + q[4] * u * v + q[5] * v * v);
          // On the board, never more than the cell or its surroundings gained; on a token, as fitted around it (a
          // dark token under the glare gains as much light as the board, it just starts darker).
          value = std::min(value, 1.2 * peak);
          if (!obj || !obj[x]) value = std::min(value, std::max(0.0, static_cast<double>(std::max(seen[x], level[x]))) + 10);
          if (value > 3) out[x] = std::max(out[x], static_cast<float>(value));
        }
      }
    }
  }
  // Where the fitted light is strong, the board is glared (reported, and not foreground).
  cv::Mat strong = fill > 15;
  glare_cells |= strong;
  cv::resize(glare_cells, glare, matched.size(), 0, 0, cv::INTER_NEAREST);
  if (corrected) {
    // (Built in place, without temporaries: these are the largest images of a frame.)
    // One pass: the light added, and the frame less it, never below 0 (`corrected` may be `matched` itself).
    cv::Mat fill_full, add(matched.size(), CV_32FC3);
    cv::resize(fill, fill_full, matched.size(), 0, 0, cv::INTER_LINEAR);
    corrected->create(matched.size(), CV_32FC3);
    for (int y = 0; y < add.rows; ++y) {
      const float* f = fill_full.ptr<float>(y);
      const cv::Vec3f* m = matched.ptr<cv::Vec3f>(y);
      cv::Vec3f* a = add.ptr<cv::Vec3f>(y);
      cv::Vec3f* out = corrected->ptr<cv::Vec3f>(y);
      for (int x = 0; x < add.cols; ++x) {
        a[x] = cv::Vec3f(f[x] * k[0], f[x] * k[1], f[x] * k[2]);
        for (int c = 0; c < 3; ++c) out[x][c] = std::max(m[x][c] - a[x][c], 0.0f);
      }
    }
    if (taken) *taken = add;
  }
  return glare;
}

namespace {

// The outline seeds where glare was, found again once it is taken off. Under a lamp's reflection the board around a
// token brightened as much as the token's cut edge stands out, so the first votes (on the frame with the glare in it,
// which the glare's fit needs) weighed its outline as an edge inside a changed patch and found few tokens there: on
// the second accuracy suite (3p photo 0) a lost tribe in full view under glare was never seeded, and its region was
// left uncertain. Made again over the glare's bounds and kMarginMm around (the votes reach 16 mm from an edge), the
// seeds within kReplaceMm of the glare (a token straddling its edge) replace the first ones there. The debug image
// of the votes stays the first one. On the three accuracy suites: region errors 52, 72 and 68 -> 51, 65 and 67,
// wrong and not flagged 0, 0 and 2 -> 1, 0 and 1 (one side misread with confidence 0.74 in place of another at 0.64),
// a full observation about 7 % slower (bench vision; only glared frames pay). Made over the whole frame: 51, 64 and
// 66 wrong, 15-20 % slower.
void SeedsUnderGlare(const cv::Mat& corrected, const cv::Mat& glare, const cv::Mat& reference_half_lab, const cv::Mat& exclude,
                     std::vector<OutlineSeed>* seeds) {
  constexpr double kMarginMm = 30, kReplaceMm = 12;
  const cv::Rect bound = cv::boundingRect(glare);
  if (bound.empty()) return;
  const int margin = cvRound(kMarginMm * kBoardPxPerMm);
  const cv::Point m(margin, margin);
  cv::Rect roi = cv::Rect(bound.tl() - m, bound.br() + m) & cv::Rect(cv::Point(), glare.size());
  // At even board pixels: the votes are taken at half resolution, on the reference's own half pixels.
  roi = cv::Rect(roi.x & ~1, roi.y & ~1, (roi.width + (roi.x & 1)) & ~1, (roi.height + (roi.y & 1)) & ~1);
  const cv::Rect half(roi.x / 2, roi.y / 2, roi.width / 2, roi.height / 2);
  if (half.width < 4 || half.height < 4 || (half & cv::Rect(0, 0, reference_half_lab.cols, reference_half_lab.rows)) != half) return;
  cv::Mat crop8;
  corrected(roi).convertTo(crop8, CV_8UC3);
  const cv::Mat crop_exclude = exclude.empty() ? cv::Mat() : exclude(roi);
  std::vector<OutlineSeed> again = OutlineSeeds(OutlineLab(crop8), reference_half_lab(half), kOutlineRadiusMm, crop_exclude, nullptr);
  auto in = [&](cv::Point2d c) { return ShareNear(glare, (c + cv::Point2d(0.5, 0.5)) / kBoardPxPerMm, kReplaceMm) > 0; };
  std::erase_if(*seeds, [&](const OutlineSeed& s) { return in(s.centre_px); });
  for (OutlineSeed& s : again) {
    s.centre_px += cv::Point2d(roi.tl());
    if (in(s.centre_px)) seeds->push_back(s);
  }
  std::sort(seeds->begin(), seeds->end(), [](const OutlineSeed& a, const OutlineSeed& b) { return a.votes > b.votes; });
}

}  // namespace

cv::Mat MarkerStickers(const calibration::Layout& layout, cv::Size board_px) {
  if (!layout.markers) return cv::Mat();
  constexpr double kSlackMm = 2;  // the registration's and the print's play
  cv::Mat m = cv::Mat::zeros(board_px, CV_8U);
  const double size = layout.markers->size_mm, out = calibration::MarkerFrameMm(size) + kSlackMm;
  for (const auto& [id, c] : layout.markers->corners) {
    const cv::Point tl(cvFloor((c.x - out) * kBoardPxPerMm), cvFloor((c.y - out) * kBoardPxPerMm));
    const cv::Point br(cvCeil((c.x + size + out) * kBoardPxPerMm), cvCeil((c.y + size + out) * kBoardPxPerMm));
    m(cv::Rect(tl, br) & cv::Rect(cv::Point(), board_px)).setTo(255);
  }
  return m;
}

namespace {

// Where the camera clipped some of a pixel's channels (kClippedAt or more), the frame says only that the light there
// reached the clip: taken back to the reference's light, such a channel reads darker than the board it may well be
// (a yellow field under glare clips in red and green, and once the glare is off it reads paler and bluer than the
// reference: foreground the size of the field, over the tokens on it). Where the channels recorded agree with the
// board (within kAgree), a clipped channel takes the reference's value when that is brighter. A pixel clipped in
// every channel is left as it is: the camera saw white there, and the foreground reports it blinded.
// On the three accuracy suites: regions flagged 528, 419 and 423 -> 478, 352 and 332; region errors 36, 41 and 43 ->
// 36, 39 and 47, where the third suite's 4 more are in a photo under glare that was taken for motion before and is
// now observed (43 on the photos observed before); wrong and not flagged 1, 0 and 0 with the dim-clip rule
// (instances.cpp kDimClip), without it a wizards token under glare read as its other side lost the flag the glare's
// foreground had given its region. Without the agreement test: 36, 43 and 45 wrong. The stage test
// Observer.TokensUnderGlareAreFound finds 18 of its 27 lost tribes, against 19: one under the strongest glare is
// named an orcs decline token (flagged), seeded differently.
void ClippedAsReference(const cv::Mat& raw, const cv::Mat& reference_bgr, const cv::Mat& saturated_cells, cv::Mat& matched) {
  constexpr float kAgree = 24;
  constexpr int n = kGlareCellPx;
  for (int cy = 0; cy < saturated_cells.rows; ++cy) {
    const cv::Vec3f* cell = saturated_cells.ptr<cv::Vec3f>(cy);
    for (int cx = 0; cx < saturated_cells.cols; ++cx) {
      if (cell[cx][0] == 0 && cell[cx][1] == 0 && cell[cx][2] == 0) continue;
      const cv::Rect block = cv::Rect(cx * n, cy * n, n, n) & cv::Rect(0, 0, raw.cols, raw.rows);
      for (int y = block.y; y < block.br().y; ++y) {
        const cv::Vec3b* f = raw.ptr<cv::Vec3b>(y);
        const cv::Vec3b* g = reference_bgr.ptr<cv::Vec3b>(y);
        cv::Vec3f* m = matched.ptr<cv::Vec3f>(y);
        for (int x = block.x; x < block.br().x; ++x) {
          const int clipped = (f[x][0] >= kClippedAt) + (f[x][1] >= kClippedAt) + (f[x][2] >= kClippedAt);
          if (clipped == 0 || clipped == 3) continue;
          bool board = true;  // the channels recorded agree with the board
          for (int c = 0; c < 3; ++c) board = board && (f[x][c] >= kClippedAt || std::abs(m[x][c] - g[x][c]) <= kAgree);
          if (!board) continue;
          for (int c = 0; c < 3; ++c)
            if (f[x][c] >= kClippedAt) m[x][c] = std::max(m[x][c], static_cast<float>(g[x][c]));
        }
      }
    }
  }
}

}  // namespace

Rectified Rectify(const cv::Mat& frame, const FramePose& pose, const cv::Mat& reference_small, const cv::Mat& reference_cells,
                  const cv::Mat& reference_half_lab, const cv::Mat& outline_exclude, const cv::Mat& reference_bgr) {
  Rectified r;
  cv::remap(frame, r.bgr, pose.map1, pose.map2, cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  cv::Mat cur;
  r.bgr.convertTo(cur, CV_32FC3);
  const cv::Mat small = Shrink(cur);
  cv::Mat gain = FitGain(small, reference_small, cv::Mat(), &r.light_change);
  cv::Mat matched = Apply(cur, gain);
  // The tokens' outlines: edges the empty board does not have, which neither light nor glare makes. Where one is
  // seen, a token lies: its cells are kept out of the glare's fit.
  {
    cv::Mat matched8;
    matched.convertTo(matched8, CV_8UC3);
    const cv::Mat half_lab = OutlineLab(matched8);
    r.outline_seeds = OutlineSeeds(half_lab, reference_half_lab, kOutlineRadiusMm, outline_exclude, &r.outline_votes);
    r.piece_seeds = OutlineSeeds(half_lab, reference_half_lab, kPieceOutlineRadiusMm, outline_exclude, nullptr);
  }
  const cv::Mat objects = ObjectCells(r.outline_seeds, reference_cells.size());
  // Glare is light added on top (a lamp's reflection), not multiplied: the gains are fitted again without it, then
  // it is taken off before anything else.
  const cv::Mat saturated = SaturatedCells(r.bgr, reference_cells.size());
  cv::Mat glare = FindGlare(matched, reference_cells, saturated, nullptr, nullptr, objects);
  cv::Mat taken;
  if (cv::countNonZero(glare) > 0) {
    cv::Mat cells;
    cv::resize(glare, cells, small.size(), 0, 0, cv::INTER_AREA);
    gain = FitGain(small, reference_small, cells > 20, nullptr);
    matched.release();
    matched = Apply(cur, gain);
    cur.release();  // the largest images of a frame: none kept longer than needed
    r.glare = FindGlare(matched, reference_cells, saturated, &matched, &taken, objects);
    SeedsUnderGlare(matched, r.glare, reference_half_lab, outline_exclude, &r.outline_seeds);
  } else {
    cur.release();
    r.glare = glare;  // the same frame, the same gains: it would find none again
  }
  // The camera saturates at 255: once matched that is 255 / gain, less the glare taken off.
  cv::divide(cv::Scalar::all(255.0), gain, r.ceiling);
  r.gain = gain;
  if (!taken.empty()) {
    cv::Mat small_taken;
    cv::resize(taken, small_taken, gain.size(), 0, 0, cv::INTER_AREA);
    r.ceiling -= small_taken;
    r.glare_added = small_taken.mul(gain);  // back in the frame's units
    const cv::Scalar sum = cv::sum(r.glare_added);
    const double len = std::sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
    if (len > 1e-3) r.glare_colour = cv::Vec3f(static_cast<float>(sum[0] / len), static_cast<float>(sum[1] / len), static_cast<float>(sum[2] / len));
  }
  if (reference_bgr.size() == r.bgr.size()) ClippedAsReference(r.bgr, reference_bgr, saturated, matched);
  matched.convertTo(r.matched, CV_8UC3);  // saturating: above 255 is 255
  r.half_lab = ForegroundLab(r.matched);
  return r;
}

}  // namespace swref::vision
