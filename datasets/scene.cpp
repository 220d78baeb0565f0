#include "datasets/scene.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <mutex>
#include <tuple>

#include <opencv2/imgproc.hpp>

#include "datasets/token_art.h"
#include "engine/components.h"

namespace swref::datasets {
namespace {

constexpr double kGridPxPerMm = 1.0;
constexpr double kRotationStepDeg = 5;   // rotations are quantised so that rendered sprites can be cached
constexpr double kWantedClearanceMm = 6;

// The pieces in the order they are put down (before the lost tribe and the race's tokens).
constexpr std::array<engine::Piece, 7> kPieceOrder = {
    engine::Piece::kMountain, engine::Piece::kTrollLair, engine::Piece::kFortress, engine::Piece::kEncampment,
    engine::Piece::kHole,     engine::Piece::kHero,      engine::Piece::kDragon};

double Radius(const std::string& kind) { return DesignOf(kind).size_mm / 2; }

// A rendered sprite and its shadow mask, cached by (kind, px_per_mm, rotation). The rotation is keyed to a hundredth
// of a degree, as drawn: keyed by its 5° step, a placement off the step (a test's own scene) drew whichever sprite the
// first caller of that step had cached, so a test's frames depended on the tests run before it in the same process.
struct Sprite {
  cv::Mat bgra;     // CV_8UC4
  cv::Mat shadow;   // CV_8U, the blurred footprint, same size as bgra plus padding on every side
  int pad = 0;
};

const Sprite& CachedSprite(const std::string& kind, double px_per_mm, double rotation_deg) {
  static std::mutex mutex;
  static std::map<std::tuple<std::string, int, int>, Sprite> cache;
  const auto key = std::make_tuple(kind, cvRound(px_per_mm * 100), cvRound(rotation_deg * 100));
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  Sprite s;
  s.bgra = RenderToken(kind, px_per_mm, rotation_deg);
  const double sigma = 1.1 * px_per_mm;
  s.pad = cvCeil(3 * sigma) + 1;
  cv::Mat alpha;
  cv::extractChannel(s.bgra, alpha, 3);
  cv::copyMakeBorder(alpha, s.shadow, s.pad, s.pad, s.pad, s.pad, cv::BORDER_CONSTANT, 0);
  cv::GaussianBlur(s.shadow, s.shadow, cv::Size(), sigma);
  return cache.emplace(key, std::move(s)).first->second;
}

// world *= 1 - strength * mask, with the mask's top-left at `at` (world pixels), clipped.
void Darken(cv::Mat& world, const cv::Mat& mask, cv::Point at, double strength) {
  const cv::Rect dst = cv::Rect(at, mask.size()) & cv::Rect(0, 0, world.cols, world.rows);
  if (dst.empty()) return;
  const int k = cvRound(strength * 256);
  for (int y = 0; y < dst.height; ++y) {
    const uchar* m = mask.ptr<uchar>(dst.y - at.y + y) + (dst.x - at.x);
    uchar* w = world.ptr<uchar>(dst.y + y) + dst.x * 3;
    for (int x = 0; x < dst.width; ++x) {
      const int f = 256 - ((m[x] * k) >> 8);
      w[3 * x] = static_cast<uchar>((w[3 * x] * f) >> 8);
      w[3 * x + 1] = static_cast<uchar>((w[3 * x + 1] * f) >> 8);
      w[3 * x + 2] = static_cast<uchar>((w[3 * x + 2] * f) >> 8);
    }
  }
}

// Alpha-blends a BGRA sprite (optionally replacing its colour by `flat`, for the cardboard edge) at `at`.
void Blend(cv::Mat& world, const cv::Mat& bgra, cv::Point at, const cv::Scalar* flat = nullptr) {
  const cv::Rect dst = cv::Rect(at, bgra.size()) & cv::Rect(0, 0, world.cols, world.rows);
  if (dst.empty()) return;
  for (int y = 0; y < dst.height; ++y) {
    const uchar* s = bgra.ptr<uchar>(dst.y - at.y + y) + (dst.x - at.x) * 4;
    uchar* w = world.ptr<uchar>(dst.y + y) + dst.x * 3;
    for (int x = 0; x < dst.width; ++x, s += 4, w += 3) {
      const int a = s[3];
      if (a == 0) continue;
      for (int c = 0; c < 3; ++c) {
        const int fg = flat ? static_cast<int>((*flat)[c]) : s[c];
        w[c] = static_cast<uchar>((fg * a + w[c] * (255 - a) + 127) / 255);
      }
    }
  }
}

uint64_t RegionSeed(uint64_t seed, size_t region, const engine::RegionState& s) {
  uint64_t h = seed * 0x9E3779B97F4A7C15ULL + region * 0xD1B54A32D192ED03ULL + 1;
  const auto* bytes = reinterpret_cast<const unsigned char*>(&s);
  for (size_t i = 0; i < sizeof s; ++i) h = (h ^ bytes[i]) * 0x100000001B3ULL;  // FNV-1a style
  h ^= h >> 31;
  return h ? h : 1;
}

struct Spot {
  cv::Point2d centre;
  double radius;
  bool race_token;
  size_t placement;  // index into the scene's placements
};

}  // namespace

PlacementGrid::PlacementGrid(const calibration::Layout& layout) : layout_(&layout) {
  labels_ = calibration::RasterizeLayout(layout, kGridPxPerMm);
  // Interior: a pixel whose 4 neighbours lie in the same region, off the board's rim and off the markers.
  cv::Mat interior(labels_.size(), CV_8U, cv::Scalar(0));
  for (int y = 1; y + 1 < labels_.rows; ++y) {
    const int* up = labels_.ptr<int>(y - 1);
    const int* row = labels_.ptr<int>(y);
    const int* down = labels_.ptr<int>(y + 1);
    uchar* out = interior.ptr<uchar>(y);
    for (int x = 1; x + 1 < labels_.cols; ++x) {
      const int l = row[x];
      out[x] = (l >= 0 && up[x] == l && down[x] == l && row[x - 1] == l && row[x + 1] == l) ? 255 : 0;
    }
  }
  if (layout.markers) {
    const double quiet = layout.markers->size_mm / 6;
    for (const auto& [id, corner] : layout.markers->corners) {
      const cv::Rect r(cvFloor((corner.x - quiet) * kGridPxPerMm), cvFloor((corner.y - quiet) * kGridPxPerMm),
                       cvCeil((layout.markers->size_mm + 2 * quiet) * kGridPxPerMm),
                       cvCeil((layout.markers->size_mm + 2 * quiet) * kGridPxPerMm));
      interior(r & cv::Rect(0, 0, interior.cols, interior.rows)).setTo(0);
    }
  }
  cv::distanceTransform(interior, clearance_, cv::DIST_L2, 5);
  clearance_ /= kGridPxPerMm;

  const int n = static_cast<int>(layout.regions.size());
  pixels_.assign(n, {});
  std::vector<float> best(n, 0);
  for (int y = 0; y < labels_.rows; ++y) {
    for (int x = 0; x < labels_.cols; ++x) {
      const int l = labels_.at<int>(y, x);
      if (l >= 0) best[l] = std::max(best[l], clearance_.at<float>(y, x));
    }
  }
  for (int y = 0; y < labels_.rows; ++y) {
    for (int x = 0; x < labels_.cols; ++x) {
      const int l = labels_.at<int>(y, x);
      const float c = clearance_.at<float>(y, x);
      // Where a region is narrow, take its best half rather than nothing.
      if (l >= 0 && c > 0 && c >= std::min<float>(kWantedClearanceMm, best[l] * 0.5f)) pixels_[l].push_back({x, y});
    }
  }
}

int PlacementGrid::RegionAt(cv::Point2d mm) const {
  const int x = cvFloor(mm.x * kGridPxPerMm), y = cvFloor(mm.y * kGridPxPerMm);
  if (x < 0 || y < 0 || x >= labels_.cols || y >= labels_.rows) return -1;
  return labels_.at<int>(y, x);
}

double PlacementGrid::Clearance(cv::Point2d mm) const {
  const int x = cvFloor(mm.x * kGridPxPerMm), y = cvFloor(mm.y * kGridPxPerMm);
  if (x < 0 || y < 0 || x >= labels_.cols || y >= labels_.rows) return 0;
  return clearance_.at<float>(y, x);
}

Scene PlaceBoard(const engine::Board& board, const PlacementGrid& grid, const SceneOptions& options) {
  Scene scene;
  std::vector<bool> uncertain(board.size(), false);
  for (size_t r = 0; r < board.size(); ++r) {
    const engine::RegionState& s = board[r];
    if (!s.HoldsAnything()) continue;
    const auto& pixels = grid.Pixels(static_cast<int>(r));
    if (pixels.empty()) continue;  // a region the layout cannot show (never for a valid layout)
    // Each region draws from its own stream, keyed by what it holds: a region that does not change between two
    // photos keeps its tokens exactly where they lay.
    cv::RNG rng(RegionSeed(options.seed, r, s));

    // What goes down here, in order.
    std::vector<std::string> kinds;
    for (engine::Piece p : kPieceOrder) {
      for (int i = 0; i < s.Count(p); ++i) kinds.emplace_back(engine::Info(p).id);
    }
    for (int i = 0; i < s.lost_tribe; ++i) kinds.emplace_back("lost_tribe");
    std::string race_kind;
    if (s.HasRace()) {
      race_kind = std::string(engine::Info(s.race_id()).id) + (s.decline ? "_decline" : "");
    }
    int race_tokens = s.HasRace() ? s.tokens : 0;

    // A neat stack of 2..4 of the race's tokens, sometimes.
    int stack = 1;
    if (race_tokens >= 2 && rng.uniform(0.0, 1.0) < options.stack_rate) {
      stack = std::min(race_tokens, rng.uniform(2, 5));
    }
    const bool overlap = rng.uniform(0.0, 1.0) < options.overlap_rate;
    // Wanted gap between two tokens, as a fraction of the sum of their radii: > 1 apart, < 1 overlapping.
    const double wanted = overlap ? rng.uniform(0.62, 0.8) : 1.08;
    // Below this the tokens would hide each other too much to be counted: stack instead.
    constexpr double kCountable = 0.55;

    std::vector<Spot> spots;
    auto put = [&](const std::string& kind, int count, bool race) {
      const double radius = Radius(kind);
      double best_score = -1;
      cv::Point2d best_at;
      for (int t = 0; t < 40; ++t) {
        const cv::Point px = pixels[rng.uniform(0, static_cast<int>(pixels.size()))];
        const double y = (px.y + rng.uniform(0.0, 1.0)) / kGridPxPerMm;  // y first: see DrawOrder in dataset.h
        const cv::Point2d at((px.x + rng.uniform(0.0, 1.0)) / kGridPxPerMm, y);
        if (grid.RegionAt(at) != static_cast<int>(r)) continue;
        double gap = 3;  // min over the spots already taken of distance / (sum of radii)
        for (const Spot& o : spots) gap = std::min(gap, cv::norm(at - o.centre) / (radius + o.radius));
        // Prefer the wanted gap (not more: overlapping regions should overlap) and room from the border.
        const double room = std::min(1.0, grid.Clearance(at) / std::max(radius * 0.8, 1.0));
        const double score = (gap >= wanted ? 2.0 : gap / wanted) + room * 0.5 - (overlap ? std::max(0.0, gap - 1) : 0);
        if (score > best_score) best_score = score, best_at = at;
        if (gap >= wanted && gap < wanted * 1.3 && room >= 1) break;
      }
      if (best_score < 0) best_at = cv::Point2d(pixels[0].x + 0.5, pixels[0].y + 0.5) / kGridPxPerMm;
      double gap = 3;
      for (const Spot& o : spots) gap = std::min(gap, cv::norm(best_at - o.centre) / (radius + o.radius));
      if (race && gap < kCountable) {  // no room: the token goes on a stack of the race's tokens
        for (Spot& o : spots) {
          if (o.race_token) {
            scene.placements[o.placement].stack += count;
            uncertain[r] = true;
            return;
          }
        }
      }
      Placement p;
      p.kind = kind;
      p.region = static_cast<int>(r);
      p.centre_mm = best_at;
      p.rotation_deg = kRotationStepDeg * rng.uniform(0, static_cast<int>(360 / kRotationStepDeg));
      p.stack = count;
      if (count > 1) uncertain[r] = true;
      spots.push_back({best_at, radius, race, scene.placements.size()});
      scene.placements.push_back(std::move(p));
    };
    for (const std::string& kind : kinds) put(kind, 1, false);
    if (race_tokens > 0) {
      put(race_kind, stack, true);
      race_tokens -= stack;
      for (int i = 0; i < race_tokens; ++i) put(race_kind, 1, true);
    }
  }
  scene.truth = vision::FromBoard(board, uncertain);
  return scene;
}

World MakeEmptyWorld(const cv::Mat& board_art, cv::Size2d board_mm, double px_per_mm, const cv::Mat& table_art,
                     double margin_mm) {
  World w;
  w.px_per_mm = px_per_mm;
  w.board_mm = board_mm;
  // The board art's pixel i covers [i, i + 1) / px_per_mm mm (markers and outlines are drawn on that grid), so the
  // centre of world pixel 0 lies half a pixel inside the table's corner.
  w.origin_mm = {-margin_mm + 0.5 / px_per_mm, -margin_mm + 0.5 / px_per_mm};
  const cv::Size size(cvRound((board_mm.width + 2 * margin_mm) * px_per_mm),
                      cvRound((board_mm.height + 2 * margin_mm) * px_per_mm));
  cv::resize(table_art, w.image, size, 0, 0, cv::INTER_LINEAR);
  const cv::Point at(cvRound(margin_mm * px_per_mm), cvRound(margin_mm * px_per_mm));
  // The board is a few millimetres thick: a soft shadow on the table along its lower right.
  cv::Mat shadow(size, CV_8U, cv::Scalar(0));
  cv::rectangle(shadow, cv::Rect(at + cv::Point(cvRound(2.5 * px_per_mm), cvRound(3 * px_per_mm)), board_art.size()),
                cv::Scalar(255), cv::FILLED);
  cv::GaussianBlur(shadow, shadow, cv::Size(), 2.5 * px_per_mm);
  Darken(w.image, shadow, {0, 0}, 0.55);
  cv::Mat board;
  if (board_art.size() == cv::Size(cvRound(board_mm.width * px_per_mm), cvRound(board_mm.height * px_per_mm))) {
    board = board_art;
  } else {
    cv::resize(board_art, board, cv::Size(cvRound(board_mm.width * px_per_mm), cvRound(board_mm.height * px_per_mm)),
               0, 0, cv::INTER_AREA);
  }
  board.copyTo(w.image(cv::Rect(at, board.size())));
  return w;
}

World ComposeWorld(const World& table_and_board, const Scene& scene, const Lighting& light, const cv::Point3d* camera) {
  World w = table_and_board;
  w.image = table_and_board.image.clone();
  const double ppm = w.px_per_mm;
  const double sd = light.shadow_deg * CV_PI / 180;
  const cv::Point2d shadow_dir(std::cos(sd), std::sin(sd));
  for (const Placement& p : scene.placements) {
    const Sprite& s = CachedSprite(p.kind, ppm, p.rotation_deg);
    // Where a point `h` mm above the token's centre appears on the board: displaced away from below the camera.
    auto lifted = [&](double h) {
      if (!camera || camera->z <= h) return p.centre_mm;
      return p.centre_mm + (p.centre_mm - cv::Point2d(camera->x, camera->y)) * (h / (camera->z - h));
    };
    auto top_left_at = [&](cv::Point2d centre_mm) {
      const cv::Point2d c = (centre_mm - w.origin_mm) * ppm;
      // The sprite's centre pixel ((size - 1) / 2, odd size) goes on the centre.
      return cv::Point(cvRound(c.x - (s.bgra.cols - 1) / 2.0), cvRound(c.y - (s.bgra.rows - 1) / 2.0));
    };
    const double height_mm = kTokenThicknessMm * p.stack;
    // The shadow: as long as the token stands tall (light.shadow_mm for one token), a little darker for a stack.
    const cv::Point2d off = shadow_dir * (light.shadow_mm * p.stack) * ppm;
    Darken(w.image, s.shadow, top_left_at(p.centre_mm) - cv::Point(s.pad, s.pad) + cv::Point(cvRound(off.x), cvRound(off.y)),
           std::min(0.65, 0.38 + 0.05 * p.stack));
    const cv::Scalar edge = DesignOf(p.kind).edge_bgr;
    if (camera) {
      // The cut wall from the board up to the top face, a slice every 0.3 mm of height.
      for (double h = 0; h < height_mm; h += 0.3) Blend(w.image, s.bgra, top_left_at(lifted(h)), &edge);
      Blend(w.image, s.bgra, top_left_at(lifted(height_mm)));
    } else {
      // Seen straight from above: the cut edge shows as a thin rim on the side away from the light.
      for (int k = std::min(p.stack, 4); k >= 1; --k) {
        const cv::Point2d e = shadow_dir * (0.35 * k);
        Blend(w.image, s.bgra, top_left_at(p.centre_mm + e), &edge);
      }
      Blend(w.image, s.bgra, top_left_at(p.centre_mm));
    }
  }
  return w;
}

}  // namespace swref::datasets
