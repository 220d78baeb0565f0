#include "datasets/board_art.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

namespace swref::datasets {
namespace {

using engine::Terrain;
constexpr int kTerrainCount = 7;

// Two paint tones per terrain (BGR) and the colour of its motif strokes.
struct Palette {
  cv::Vec3f dark, light, motif;
};
const std::array<Palette, kTerrainCount> kPalettes = {{
    {{60, 150, 196}, {110, 205, 232}, {40, 110, 160}},    // farmland: ripe wheat, ochre furrows
    {{38, 84, 40}, {70, 128, 74}, {26, 58, 30}},          // forest: deep greens, dark crowns
    {{86, 160, 128}, {128, 200, 170}, {60, 120, 96}},     // hill: light olive, darker contours
    {{98, 110, 122}, {150, 160, 170}, {60, 66, 74}},      // mountain: grey-brown rock, dark ridges
    {{70, 102, 92}, {104, 134, 112}, {40, 66, 56}},       // swamp: murky olive-teal, dark reeds
    {{128, 82, 34}, {170, 122, 62}, {214, 186, 140}},     // sea: deep blue, pale wave crests
    {{170, 140, 76}, {206, 178, 112}, {230, 214, 170}},   // lake: lighter blue-teal, ripples
}};

// Smooth noise in [0, 1]: random values on a coarse grid, cubic-resized to full size. `cells` across the width.
cv::Mat ValueNoise(cv::Size size, double cells_x, double cells_y, cv::RNG& rng) {
  const int gw = std::max(2, static_cast<int>(std::ceil(cells_x)) + 3);
  const int gh = std::max(2, static_cast<int>(std::ceil(cells_y)) + 3);
  cv::Mat grid(gh, gw, CV_32F);
  rng.fill(grid, cv::RNG::UNIFORM, 0.0f, 1.0f);
  cv::Mat out;
  cv::resize(grid, out, size, 0, 0, cv::INTER_CUBIC);
  return out;
}

// Fractal noise: octaves of value noise, normalised to [0, 1].
cv::Mat Fractal(cv::Size size, double cells, int octaves, cv::RNG& rng) {
  cv::Mat sum = cv::Mat::zeros(size, CV_32F);
  double amp = 1, total = 0, c = cells;
  const double aspect = static_cast<double>(size.height) / size.width;
  for (int o = 0; o < octaves; ++o) {
    sum += ValueNoise(size, c, c * aspect, rng) * amp;
    total += amp;
    amp *= 0.5;
    c *= 2.1;
  }
  sum /= total;
  cv::normalize(sum, sum, 0, 1, cv::NORM_MINMAX);
  return sum;
}

cv::Scalar ToScalar(const cv::Vec3f& v, double gain = 1) { return cv::Scalar(v[0] * gain, v[1] * gain, v[2] * gain); }

// A point inside region `id` far from its border (the pole of the label's distance transform), in pixels.
struct RegionGeometry {
  cv::Rect box;
  cv::Mat mask;   // CV_8U over box, 255 inside the region
  cv::Mat dist;   // CV_32F over box, distance to the region's outside, pixels
};

RegionGeometry Geometry(const cv::Mat& labels, int id) {
  RegionGeometry g;
  cv::Mat full = labels == id;
  g.box = cv::boundingRect(full);
  if (g.box.empty()) return g;
  // One pixel of padding so the distance transform sees the outside on every side.
  cv::Rect padded(g.box.x - 1, g.box.y - 1, g.box.width + 2, g.box.height + 2);
  padded &= cv::Rect(0, 0, labels.cols, labels.rows);
  g.box = padded;
  g.mask = full(padded).clone();
  cv::Mat bordered;
  cv::copyMakeBorder(g.mask, bordered, 1, 1, 1, 1, cv::BORDER_CONSTANT, 0);
  cv::Mat d;
  cv::distanceTransform(bordered, d, cv::DIST_L2, 5);
  g.dist = d(cv::Rect(1, 1, g.mask.cols, g.mask.rows)).clone();
  return g;
}

// Spots for `count` symbols in a region: the pole first, then the farthest-inside points at least `spacing` px
// from the spots already chosen. In board pixels.
std::vector<cv::Point2d> PickSpots(const RegionGeometry& g, int count, double spacing) {
  std::vector<cv::Point2d> spots;
  if (g.box.empty()) return spots;
  cv::Mat d = g.dist.clone();
  for (int i = 0; i < count; ++i) {
    double best;
    cv::Point at;
    cv::minMaxLoc(d, nullptr, &best, nullptr, &at);
    if (best <= 0) at = {g.mask.cols / 2, g.mask.rows / 2};
    spots.push_back({at.x + g.box.x + 0.5, at.y + g.box.y + 0.5});
    cv::circle(d, at, static_cast<int>(spacing), cv::Scalar(0), cv::FILLED);
  }
  return spots;
}

// The symbols a region shows, in drawing order.
std::vector<int> SymbolsOf(const engine::Region& r) {
  std::vector<int> s;  // 0 cavern, 1 magic, 2 mine, 3 lost-tribe mark
  if (r.cavern) s.push_back(0);
  if (r.magic) s.push_back(1);
  if (r.mine) s.push_back(2);
  if (r.lost_tribe) s.push_back(3);
  return s;
}

cv::Point P(cv::Point2d p, int shift = 4) { return {cvRound(p.x * (1 << shift)), cvRound(p.y * (1 << shift))}; }

void FillPoly(cv::Mat& img, const std::vector<cv::Point2d>& pts, const cv::Scalar& colour) {
  std::vector<cv::Point> q;
  for (const auto& p : pts) q.push_back(P(p));
  cv::fillPoly(img, std::vector<std::vector<cv::Point>>{q}, colour, cv::LINE_AA, 4);
}

void Disc(cv::Mat& img, cv::Point2d c, double r, const cv::Scalar& colour) {
  cv::circle(img, P(c), cvRound(r * 16), colour, cv::FILLED, cv::LINE_AA, 4);
}

void Line(cv::Mat& img, cv::Point2d a, cv::Point2d b, const cv::Scalar& colour, double width) {
  cv::line(img, P(a), P(b), colour, std::max(1, cvRound(width)), cv::LINE_AA, 4);
}

// Symbols, about `s` pixels across, centred at c.
void DrawCavern(cv::Mat& img, cv::Point2d c, double s) {
  std::vector<cv::Point2d> rock;
  for (int i = 0; i <= 12; ++i) {
    const double a = CV_PI * i / 12;
    const double r = s * (0.5 + 0.06 * std::sin(i * 2.3));
    rock.push_back({c.x - r * std::cos(a), c.y + s * 0.3 - r * std::sin(a) * 0.9});
  }
  FillPoly(img, rock, {72, 80, 88});
  std::vector<cv::Point2d> mouth;
  for (int i = 0; i <= 10; ++i) {
    const double a = CV_PI * i / 10;
    mouth.push_back({c.x - s * 0.25 * std::cos(a), c.y + s * 0.3 - s * 0.42 * std::sin(a)});
  }
  FillPoly(img, mouth, {12, 12, 14});
  Line(img, {c.x - s * 0.5, c.y + s * 0.3}, {c.x + s * 0.5, c.y + s * 0.3}, {30, 34, 38}, s * 0.06);
}

void DrawMagic(cv::Mat& img, cv::Point2d c, double s) {
  for (int k = 4; k >= 1; --k) Disc(img, c, s * 0.14 * k, cv::Scalar(190 + 12 * k, 120 + 20 * k, 200 + 10 * k) * 0.8);
  std::vector<cv::Point2d> star;
  for (int i = 0; i < 12; ++i) {
    const double r = (i % 2 ? 0.18 : 0.5) * s;
    const double a = CV_PI * i / 6 - CV_PI / 2;
    star.push_back({c.x + r * std::cos(a), c.y + r * std::sin(a)});
  }
  FillPoly(img, star, {220, 90, 170});
  Disc(img, c, s * 0.1, {255, 240, 255});
}

void DrawMine(cv::Mat& img, cv::Point2d c, double s) {
  const cv::Scalar handle(40, 80, 120), head(150, 150, 156);
  for (int side : {-1, 1}) {
    const cv::Point2d a{c.x - side * s * 0.4, c.y + s * 0.4}, b{c.x + side * s * 0.3, c.y - s * 0.3};
    Line(img, a, b, handle, s * 0.1);
    const cv::Point2d h1{b.x - side * s * 0.25, b.y - s * 0.05}, h2{b.x + side * s * 0.15, b.y + s * 0.28};
    Line(img, h1, h2, head, s * 0.12);
  }
  Disc(img, {c.x, c.y + s * 0.32}, s * 0.13, {40, 190, 230});
}

void DrawLostTribeMark(cv::Mat& img, cv::Point2d c, double s) {
  Disc(img, c, s * 0.5, {40, 60, 90});
  Disc(img, c, s * 0.42, {170, 212, 232});
  std::vector<cv::Point2d> mask = {{c.x - s * 0.25, c.y - s * 0.25}, {c.x + s * 0.25, c.y - s * 0.25},
                                   {c.x + s * 0.18, c.y + s * 0.15}, {c.x, c.y + s * 0.3},
                                   {c.x - s * 0.18, c.y + s * 0.15}};
  FillPoly(img, mask, {40, 70, 120});
  Disc(img, {c.x - s * 0.1, c.y - s * 0.07}, s * 0.05, {230, 240, 245});
  Disc(img, {c.x + s * 0.1, c.y - s * 0.07}, s * 0.05, {230, 240, 245});
}

// Terrain motifs over one region, clipped to it afterwards by the caller. `ppm` = px per mm.
void DrawMotifs(cv::Mat& roi, const RegionGeometry& g, Terrain terrain, double ppm, cv::RNG& rng) {
  const Palette& pal = kPalettes[static_cast<int>(terrain)];
  const int area = cv::countNonZero(g.mask);
  auto inside = [&](cv::Point2d p) {
    const int x = cvFloor(p.x), y = cvFloor(p.y);
    return x >= 0 && y >= 0 && x < g.mask.cols && y < g.mask.rows && g.mask.at<uchar>(y, x) != 0;
  };
  auto random_inside = [&](cv::Point2d* out) {
    for (int t = 0; t < 40; ++t) {
      const double y = rng.uniform(0.0, static_cast<double>(g.mask.rows));  // y first: see DrawOrder in dataset.h
      cv::Point2d p(rng.uniform(0.0, static_cast<double>(g.mask.cols)), y);
      if (inside(p)) return *out = p, true;
    }
    return false;
  };
  const double mm2 = area / (ppm * ppm);
  cv::Point2d p;
  switch (terrain) {
    case Terrain::kFarmland: {  // furrows: parallel strokes in one direction per field, sometimes two fields
      const double angle = rng.uniform(0.0, CV_PI);
      const cv::Point2d d(std::cos(angle), std::sin(angle)), n(-d.y, d.x);
      const double span = std::hypot(g.mask.cols, g.mask.rows);
      const double step = ppm * rng.uniform(3.5, 5.5);
      for (double t = -span; t < span; t += step) {
        const cv::Point2d c(g.mask.cols / 2.0 + n.x * t, g.mask.rows / 2.0 + n.y * t);
        const double shade = rng.uniform(0.75, 1.0);
        Line(roi, c - d * span, c + d * span, ToScalar(pal.motif, shade), ppm * 0.6);
      }
      break;
    }
    case Terrain::kForest: {  // tree crowns: dark disc, lighter top-left highlight
      const int n = static_cast<int>(mm2 / 70);
      for (int i = 0; i < n && random_inside(&p); ++i) {
        const double r = ppm * rng.uniform(3.0, 5.5);
        Disc(roi, p + cv::Point2d(r * 0.25, r * 0.3), r, ToScalar(pal.motif, 0.7));
        Disc(roi, p, r, ToScalar(pal.dark, rng.uniform(0.85, 1.15)));
        Disc(roi, p - cv::Point2d(r * 0.3, r * 0.3), r * 0.45, ToScalar(pal.light, 1.05));
      }
      break;
    }
    case Terrain::kHill: {  // contour arcs
      const int n = static_cast<int>(mm2 / 450) + 2;
      for (int i = 0; i < n && random_inside(&p); ++i) {
        const double r = ppm * rng.uniform(7.0, 14.0);
        for (int k = 0; k < 3; ++k) {
          cv::ellipse(roi, P(p), cv::Size(cvRound(r * (1 - 0.28 * k) * 16), cvRound(r * 0.55 * (1 - 0.28 * k) * 16)), 0,
                      180, 360, ToScalar(pal.motif, 0.9), std::max(1, cvRound(ppm * 0.5)), cv::LINE_AA, 4);
        }
      }
      break;
    }
    case Terrain::kMountain: {  // peaks: dark ridge triangles with a light flank and snow caps
      const int n = static_cast<int>(mm2 / 380) + 2;
      for (int i = 0; i < n && random_inside(&p); ++i) {
        const double w = ppm * rng.uniform(8.0, 15.0), h = w * rng.uniform(0.7, 1.1);
        const cv::Point2d top(p.x, p.y - h / 2), left(p.x - w / 2, p.y + h / 2), right(p.x + w / 2, p.y + h / 2);
        FillPoly(roi, {top, left, right}, ToScalar(pal.dark, 0.8));
        FillPoly(roi, {top, {p.x, p.y + h / 2}, right}, ToScalar(pal.light, 0.95));
        FillPoly(roi, {top, top + (left - top) * 0.28, top + (right - top) * 0.28}, {236, 240, 242});
        Line(roi, left, top, ToScalar(pal.motif), ppm * 0.5);
        Line(roi, top, right, ToScalar(pal.motif), ppm * 0.5);
      }
      break;
    }
    case Terrain::kSwamp: {  // puddles and reeds
      const int n = static_cast<int>(mm2 / 160);
      for (int i = 0; i < n && random_inside(&p); ++i) {
        if (rng.uniform(0, 3) == 0) {
          const double angle = rng.uniform(-20.0, 20.0);  // the draws last to first: see DrawOrder in dataset.h
          const int b = cvRound(ppm * rng.uniform(1.5, 3.0) * 16);
          const int a = cvRound(ppm * rng.uniform(3.0, 7.0) * 16);
          cv::ellipse(roi, P(p), cv::Size(a, b), angle, 0, 360, cv::Scalar(130, 128, 84), cv::FILLED, cv::LINE_AA, 4);
        } else {
          for (int k = -1; k <= 1; ++k) {
            Line(roi, p + cv::Point2d(k * ppm * 0.8, 0), p + cv::Point2d(k * ppm * 1.6, -ppm * rng.uniform(3.0, 5.0)),
                 ToScalar(pal.motif), ppm * 0.35);
          }
        }
      }
      break;
    }
    case Terrain::kSea:
    case Terrain::kLake: {  // wave crests: short arcs in rows
      const int n = static_cast<int>(mm2 / (terrain == Terrain::kSea ? 90 : 140));
      for (int i = 0; i < n && random_inside(&p); ++i) {
        const double r = ppm * rng.uniform(2.0, 3.5);
        cv::ellipse(roi, P(p), cv::Size(cvRound(r * 16), cvRound(r * 0.6 * 16)), 0, 200, 340,
                    ToScalar(pal.motif, rng.uniform(0.85, 1.0)), std::max(1, cvRound(ppm * 0.4)), cv::LINE_AA, 4);
      }
      break;
    }
  }
}

}  // namespace

std::vector<std::vector<cv::Point2d>> SymbolSpots(const engine::Map& map, const calibration::Layout& layout) {
  constexpr double kPpm = 1.0;  // a coarse raster is enough to find the spots
  const cv::Mat labels = calibration::RasterizeLayout(layout, kPpm);
  std::vector<std::vector<cv::Point2d>> spots(map.regions.size());
  for (const engine::Region& r : map.regions) {
    const auto symbols = SymbolsOf(r);
    if (symbols.empty()) continue;
    for (const cv::Point2d& p : PickSpots(Geometry(labels, r.id), static_cast<int>(symbols.size()), 18 * kPpm)) {
      spots[r.id].push_back(p * (1.0 / kPpm));
    }
  }
  return spots;
}

cv::Mat RenderBoard(const engine::Map& map, const calibration::Layout& layout, const BoardArtOptions& options) {
  const double ppm = options.px_per_mm;
  const cv::Mat labels = calibration::RasterizeLayout(layout, ppm);
  const cv::Size size = labels.size();
  cv::RNG rng(options.seed * 0x9E3779B97F4A7C15ULL + 17);

  // Shared paint fields: a broad tone field, a finer mottling and brush-stroke streaks (noise stretched along a
  // slanted direction, like strokes of a wide brush).
  const double board_cells = layout.board_mm.width / 60;
  const cv::Mat tone = Fractal(size, board_cells, 4, rng);
  const cv::Mat mottle = Fractal(size, board_cells * 6, 3, rng);
  cv::Mat streak;
  {
    cv::Mat small = ValueNoise(cv::Size(size.width / 4, size.height / 4), board_cells * 1.5, board_cells * 30, rng);
    cv::Mat rot = cv::getRotationMatrix2D(cv::Point2f(small.cols / 2.f, small.rows / 2.f), 25, 1.4);
    cv::warpAffine(small, small, rot, small.size(), cv::INTER_LINEAR, cv::BORDER_REFLECT);
    cv::resize(small, streak, size, 0, 0, cv::INTER_LINEAR);
  }

  cv::Mat board(size, CV_8UC3, cv::Scalar(200, 220, 230));
  std::array<cv::Mat, kTerrainCount> terrain_mask;
  for (int t = 0; t < kTerrainCount; ++t) terrain_mask[t] = cv::Mat::zeros(size, CV_8U);
  for (const engine::Region& r : map.regions) {
    if (r.id < static_cast<int>(layout.regions.size())) terrain_mask[static_cast<int>(r.terrain)].setTo(255, labels == r.id);
  }

  // Paint each terrain's base: two tones mixed by the tone field, mottled, streaked.
  for (int t = 0; t < kTerrainCount; ++t) {
    if (cv::countNonZero(terrain_mask[t]) == 0) continue;
    const Palette& pal = kPalettes[t];
    std::array<cv::Mat, 3> ch;
    for (int c = 0; c < 3; ++c) {
      ch[c] = pal.dark[c] + (tone * 0.7 + mottle * 0.3) * (pal.light[c] - pal.dark[c]);
      ch[c] = ch[c].mul(0.9 + streak * 0.2);
    }
    cv::Mat paint;
    cv::merge(ch.data(), 3, paint);
    paint.convertTo(paint, CV_8UC3);
    paint.copyTo(board, terrain_mask[t]);
  }

  // Per region: a slight tint of its own (printed maps vary within a terrain), then its motifs, clipped.
  for (const engine::Region& r : map.regions) {
    if (r.id >= static_cast<int>(layout.regions.size())) continue;
    const RegionGeometry g = Geometry(labels, r.id);
    if (g.box.empty()) continue;
    cv::Mat roi = board(g.box).clone();
    cv::Scalar tint;  // the draws last to first: see DrawOrder in dataset.h
    for (int c = 2; c >= 0; --c) tint[c] = rng.uniform(0.93, 1.07);
    cv::multiply(roi, tint, roi);
    DrawMotifs(roi, g, r.terrain, ppm, rng);
    roi.copyTo(board(g.box), g.mask);
  }

  // Surf: water within 2.5 mm of land is lightened.
  cv::Mat water = terrain_mask[static_cast<int>(Terrain::kSea)] | terrain_mask[static_cast<int>(Terrain::kLake)];
  if (cv::countNonZero(water) > 0) {
    cv::Mat land_near;
    const int k = std::max(3, cvRound(ppm * 5) | 1);
    cv::dilate(~water, land_near, cv::getStructuringElement(cv::MORPH_ELLIPSE, {k, k}));
    cv::Mat surf = land_near & water;
    cv::Mat soft;
    surf.convertTo(soft, CV_32F, 1.0 / 255);
    cv::GaussianBlur(soft, soft, cv::Size(), ppm * 1.2);
    cv::Mat boardf;
    board.convertTo(boardf, CV_32FC3);
    cv::Mat soft3;
    cv::merge(std::vector<cv::Mat>{soft, soft, soft}, soft3);
    boardf = boardf + soft3.mul(cv::Scalar(235, 235, 225) - boardf) * 0.55;
    boardf.convertTo(board, CV_8UC3);
  }

  // Inked borders: a soft dark shading inside each region along its border, then the border line itself. The
  // board's own edge is a cut, not a printed line: a band along it keeps the uninked paint.
  const cv::Mat uninked = board.clone();
  {
    cv::Mat edges(size, CV_8U, cv::Scalar(0));
    const int thick = std::max(1, cvRound(ppm * 1.1));
    for (const auto& poly : layout.regions) {
      std::vector<cv::Point> q;
      for (const auto& p : poly) q.push_back(P(p * ppm));
      cv::polylines(edges, std::vector<std::vector<cv::Point>>{q}, true, cv::Scalar(255), thick * 3, cv::LINE_AA, 4);
    }
    cv::Mat shade;
    edges.convertTo(shade, CV_32F, 1.0 / 255);
    cv::GaussianBlur(shade, shade, cv::Size(), ppm * 1.5);
    cv::Mat boardf;
    board.convertTo(boardf, CV_32FC3);
    cv::Mat gain = 1.0 - shade * 0.35;
    cv::Mat gain3;
    cv::merge(std::vector<cv::Mat>{gain, gain, gain}, gain3);
    boardf = boardf.mul(gain3);
    boardf.convertTo(board, CV_8UC3);
    for (const auto& poly : layout.regions) {
      std::vector<cv::Point> q;
      for (const auto& p : poly) q.push_back(P(p * ppm));
      cv::polylines(board, std::vector<std::vector<cv::Point>>{q}, true, cv::Scalar(28, 34, 40), thick, cv::LINE_AA, 4);
    }
  }

  {
    const int band = std::max(1, cvRound(2.0 * ppm));
    cv::Mat edge_band(size, CV_8U, cv::Scalar(255));
    edge_band(cv::Rect(band, band, size.width - 2 * band, size.height - 2 * band)).setTo(0);
    uninked.copyTo(board, edge_band);
  }

  // Symbols.
  const double symbol_px = 13 * ppm;
  for (const engine::Region& r : map.regions) {
    const auto symbols = SymbolsOf(r);
    if (symbols.empty() || r.id >= static_cast<int>(layout.regions.size())) continue;
    const auto spots = PickSpots(Geometry(labels, r.id), static_cast<int>(symbols.size()), 18 * ppm);
    for (size_t i = 0; i < symbols.size(); ++i) {
      switch (symbols[i]) {
        case 0: DrawCavern(board, spots[i], symbol_px); break;
        case 1: DrawMagic(board, spots[i], symbol_px); break;
        case 2: DrawMine(board, spots[i], symbol_px); break;
        default: DrawLostTribeMark(board, spots[i], symbol_px); break;
      }
    }
  }

  // Printed paper: a fine grain. (No dark rim: on a dark table it would hide where the board ends.)
  {
    cv::Mat grain(size, CV_16SC3);
    rng.fill(grain, cv::RNG::NORMAL, 0, 3);
    cv::Mat b16;
    board.convertTo(b16, CV_16SC3);
    b16 += grain;
    b16.convertTo(board, CV_8UC3);
  }

  if (options.markers && layout.markers) {
    const auto& m = *layout.markers;
    const cv::Ptr<cv::aruco::Dictionary> dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
    const int side = cvRound(m.size_mm * ppm);
    const int quiet = cvRound(m.size_mm * ppm / 6);  // one module of white around the marker
    for (const auto& [id, corner] : m.corners) {
      cv::Mat marker;
      cv::aruco::drawMarker(dict, id, side, marker, 1);
      cv::cvtColor(marker, marker, cv::COLOR_GRAY2BGR);
      const cv::Rect at(cvRound(corner.x * ppm), cvRound(corner.y * ppm), side, side);
      const cv::Rect white(at.x - quiet, at.y - quiet, side + 2 * quiet, side + 2 * quiet);
      board(white & cv::Rect(0, 0, size.width, size.height)).setTo(cv::Scalar(245, 245, 245));
      const cv::Rect clipped = at & cv::Rect(0, 0, size.width, size.height);
      marker(cv::Rect(clipped.x - at.x, clipped.y - at.y, clipped.width, clipped.height)).copyTo(board(clipped));
    }
  }
  return board;
}

void AddCornerMarkers(calibration::Layout& layout, double size_mm, double inset_mm) {
  calibration::LayoutMarkers m;
  m.dictionary = "DICT_4X4_50";
  m.size_mm = size_mm;
  const double w = layout.board_mm.width, h = layout.board_mm.height;
  m.corners[0] = {inset_mm, inset_mm};
  m.corners[1] = {w - inset_mm - size_mm, inset_mm};
  m.corners[2] = {w - inset_mm - size_mm, h - inset_mm - size_mm};
  m.corners[3] = {inset_mm, h - inset_mm - size_mm};
  layout.markers = m;
}

cv::Mat RenderTable(cv::Size size, double px_per_mm, TableKind kind, uint64_t seed) {
  cv::RNG rng(seed * 0x2545F4914F6CDD1DULL + 3);
  cv::Mat out(size, CV_8UC3);
  const double mm_w = size.width / px_per_mm, mm_h = size.height / px_per_mm;
  if (kind == TableKind::kFelt || kind == TableKind::kLinen) {
    const cv::Vec3f base = kind == TableKind::kFelt ? cv::Vec3f(58, 96, 44) : cv::Vec3f(196, 206, 212);
    const cv::Mat tone = Fractal(size, mm_w / 80, 3, rng);
    cv::Mat fibre(size, CV_32F);
    rng.fill(fibre, cv::RNG::NORMAL, 0, 1);
    cv::GaussianBlur(fibre, fibre, cv::Size(), kind == TableKind::kFelt ? 0.8 : 0.5);
    std::array<cv::Mat, 3> ch;
    for (int c = 0; c < 3; ++c) ch[c] = base[c] * (0.9 + tone * 0.2) + fibre * (kind == TableKind::kFelt ? 6 : 4);
    if (kind == TableKind::kLinen) {  // a woven check, faint
      cv::Mat weave(size, CV_32F);
      for (int y = 0; y < size.height; ++y) {
        float* row = weave.ptr<float>(y);
        for (int x = 0; x < size.width; ++x) {
          row[x] = static_cast<float>(3 * (std::sin(x / px_per_mm * 1.7) + std::sin(y / px_per_mm * 1.7)));
        }
      }
      for (auto& c : ch) c += weave;
    }
    cv::merge(ch.data(), 3, out);
    out.convertTo(out, CV_8UC3);
    return out;
  }
  // Wood: planks along x, each with its own tone; grain is noise stretched strongly along the plank.
  const cv::Vec3f base = kind == TableKind::kOak ? cv::Vec3f(80, 130, 175)
                         : kind == TableKind::kWalnut ? cv::Vec3f(42, 62, 92)
                                                     : cv::Vec3f(120, 175, 215);
  cv::Mat grain;
  {
    cv::Mat small = ValueNoise(cv::Size(std::max(8, size.width / 8), size.height), mm_w / 250, mm_h / 1.5, rng);
    cv::resize(small, grain, size, 0, 0, cv::INTER_LINEAR);
  }
  const cv::Mat figure = Fractal(size, mm_w / 120, 3, rng);
  std::array<cv::Mat, 3> ch;
  for (int c = 0; c < 3; ++c) ch[c] = base[c] * (0.78 + grain * 0.3 + figure * 0.12);
  cv::merge(ch.data(), 3, out);
  out.convertTo(out, CV_8UC3);
  const double plank_mm = rng.uniform(110.0, 170.0);
  for (double y = rng.uniform(0.0, plank_mm); y < mm_h; y += plank_mm) {
    const cv::Rect band(0, cvRound(y * px_per_mm), size.width, cvRound(plank_mm * px_per_mm));
    cv::Mat b = out(band & cv::Rect(0, 0, size.width, size.height));
    cv::multiply(b, cv::Scalar::all(rng.uniform(0.88, 1.1)), b);
    cv::line(out, {0, band.y}, {size.width, band.y}, base * 0.35, std::max(1, cvRound(px_per_mm * 0.8)), cv::LINE_AA);
  }
  return out;
}

}  // namespace swref::datasets
