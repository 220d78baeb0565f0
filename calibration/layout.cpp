#include "calibration/layout.h"

#include <cmath>
#include <fstream>

#include <opencv2/imgproc.hpp>

#include "engine/json_input.h"

namespace swref::calibration {
namespace {

using nlohmann::json;
using LayoutResult = engine::Result<Layout>;

bool ReadPoint(const json& v, cv::Point2d* p) {
  if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_number()) return false;
  *p = {v[0].get<double>(), v[1].get<double>()};
  return std::isfinite(p->x) && std::isfinite(p->y);  // a document built in code may hold infinities
}

// An integer id in lo..hi (an unsigned or floating JSON number is not an id).
bool ReadId(const json& v, int64_t lo, int64_t hi, int64_t* out) {
  if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(hi))) return false;
  *out = v.get<int64_t>();
  return *out >= lo && *out <= hi;
}

std::string ParseMarkers(const json& m, const std::string& place, const Layout& layout, LayoutMarkers* out) {
  if (!m.is_object()) return place + ": expected an object";
  if (m.contains("dictionary")) {
    if (!m["dictionary"].is_string()) return place + ".dictionary: expected a dictionary name";
    out->dictionary = m["dictionary"].get<std::string>();
  }
  const double max_size = std::min(layout.board_mm.width, layout.board_mm.height);
  if (!m.contains("size_mm") || !m["size_mm"].is_number() || !(m["size_mm"].get<double>() > 0) || !(m["size_mm"].get<double>() <= max_size))
    return place + ".size_mm: expected a positive number no larger than the board";
  out->size_mm = m["size_mm"].get<double>();
  if (!m.contains("corners") || !m["corners"].is_object()) return place + ".corners: expected an object {\"id\": [x, y]}";
  if (m["corners"].size() > kMaxLayoutMarkers) return place + ".corners: more than " + std::to_string(kMaxLayoutMarkers) + " markers";
  for (auto& [key, value] : m["corners"].items()) {
    cv::Point2d p;
    if (key.empty() || key.size() > 4 || key.find_first_not_of("0123456789") != std::string::npos)
      return place + ".corners: \"" + key + "\" is not a marker id";
    const int id = std::stoi(key);
    if (!ReadPoint(value, &p)) return place + ".corners." + key + ": expected [x, y] in mm";
    if (p.x < 0 || p.y < 0 || p.x + out->size_mm > layout.board_mm.width + 1e-6 || p.y + out->size_mm > layout.board_mm.height + 1e-6)
      return place + ".corners." + key + ": the marker does not fit on the board";
    out->corners[id] = p;
  }
  return "";
}

}  // namespace

LayoutResult ParseLayout(const json& doc, const std::string& where) {
  if (!doc.is_object()) return LayoutResult::Error(where + ": expected a JSON object");
  if (!doc.contains("format") || doc["format"] != kLayoutFormat) return LayoutResult::Error(where + ".format: expected \"" + kLayoutFormat + "\"");
  Layout layout;
  if (!doc.contains("map") || !doc["map"].is_string()) return LayoutResult::Error(where + ".map: expected a map name or path");
  layout.map = doc["map"].get<std::string>();
  cv::Point2d size;
  if (!doc.contains("board_mm") || !ReadPoint(doc["board_mm"], &size) || size.x < 1 || size.y < 1 || size.x > kMaxBoardSideMm ||
      size.y > kMaxBoardSideMm)
    return LayoutResult::Error(where + ".board_mm: expected [width, height] in mm, 1.." + std::to_string(static_cast<int>(kMaxBoardSideMm)) + " each");
  layout.board_mm = {size.x, size.y};
  if (!doc.contains("regions") || !doc["regions"].is_array() || doc["regions"].empty()) return LayoutResult::Error(where + ".regions: expected a non-empty array");
  const json& regions = doc["regions"];
  if (regions.size() > static_cast<size_t>(engine::kMaxRegions))
    return LayoutResult::Error(where + ".regions: " + std::to_string(regions.size()) + " regions, more than the limit of " + std::to_string(engine::kMaxRegions));
  const int n = static_cast<int>(regions.size());
  size_t points = 0;
  layout.regions.assign(n, {});
  std::vector<bool> seen(n, false);
  constexpr double kSlack = 1.0;  // mm a point may lie outside the board
  for (int i = 0; i < n; ++i) {
    const std::string place = where + ".regions[" + std::to_string(i) + "]";
    const json& r = regions[i];
    if (!r.is_object() || !r.contains("id") || !r["id"].is_number_integer()) return LayoutResult::Error(place + ".id: expected an integer");
    int64_t id = -1;
    if (!ReadId(r["id"], 0, n - 1, &id)) return LayoutResult::Error(place + ".id: " + r["id"].dump() + " is out of range 0.." + std::to_string(n - 1));
    if (seen[id]) return LayoutResult::Error(place + ".id: " + std::to_string(id) + " is used twice");
    seen[id] = true;
    if (!r.contains("polygon") || !r["polygon"].is_array() || r["polygon"].size() < 3)
      return LayoutResult::Error(place + ".polygon: expected at least 3 points [x, y]");
    points += r["polygon"].size();
    if (points > kMaxLayoutPoints) return LayoutResult::Error(where + ".regions: more than " + std::to_string(kMaxLayoutPoints) + " polygon points in all");
    for (size_t k = 0; k < r["polygon"].size(); ++k) {
      cv::Point2d p;
      if (!ReadPoint(r["polygon"][k], &p)) return LayoutResult::Error(place + ".polygon[" + std::to_string(k) + "]: expected [x, y] in mm");
      if (p.x < -kSlack || p.y < -kSlack || p.x > size.x + kSlack || p.y > size.y + kSlack)
        return LayoutResult::Error(place + ".polygon[" + std::to_string(k) + "]: (" + std::to_string(p.x) + ", " + std::to_string(p.y) + ") lies off the board");
      layout.regions[id].push_back(p);
    }
  }
  if (doc.contains("markers")) {
    LayoutMarkers markers;
    if (auto e = ParseMarkers(doc["markers"], where + ".markers", layout, &markers); !e.empty()) return LayoutResult::Error(e);
    layout.markers = markers;
  }
  return layout;
}

LayoutResult ReadLayoutFile(const std::string& path) {
  auto doc = engine::ReadJsonFile(path, engine::kMaxJsonFileBytes, "layout");
  if (!doc) return LayoutResult::Error(doc.error());
  return ParseLayout(*doc, path);
}

nlohmann::ordered_json ToJson(const Layout& layout) {
  nlohmann::ordered_json j;
  j["format"] = kLayoutFormat;
  j["map"] = layout.map;
  j["board_mm"] = {layout.board_mm.width, layout.board_mm.height};
  j["regions"] = nlohmann::ordered_json::array();
  auto round2 = [](double v) { return std::round(v * 100) / 100; };
  for (size_t i = 0; i < layout.regions.size(); ++i) {
    nlohmann::ordered_json poly = nlohmann::ordered_json::array();
    for (const cv::Point2d& p : layout.regions[i]) poly.push_back({round2(p.x), round2(p.y)});
    j["regions"].push_back({{"id", i}, {"polygon", poly}});
  }
  if (layout.markers) {
    nlohmann::ordered_json corners = nlohmann::ordered_json::object();
    for (const auto& [id, p] : layout.markers->corners) corners[std::to_string(id)] = {round2(p.x), round2(p.y)};
    j["markers"] = {{"dictionary", layout.markers->dictionary}, {"size_mm", layout.markers->size_mm}, {"corners", corners}};
  }
  return j;
}

namespace {

std::vector<cv::Point> ToPixels(const std::vector<cv::Point2d>& polygon, double px_per_mm) {
  std::vector<cv::Point> pts;
  pts.reserve(polygon.size());
  // Fixed point with 4 fractional bits: fillPoly's `shift` keeps sub-pixel accuracy.
  for (const cv::Point2d& p : polygon) pts.emplace_back(cvRound(p.x * px_per_mm * 16 - 8), cvRound(p.y * px_per_mm * 16 - 8));
  return pts;
}

}  // namespace

cv::Mat RasterizeLayout(const Layout& layout, double px_per_mm) {
  cv::Mat labels(cvRound(layout.board_mm.height * px_per_mm), cvRound(layout.board_mm.width * px_per_mm), CV_32S, cv::Scalar(-1));
  for (size_t i = 0; i < layout.regions.size(); ++i) {
    std::vector<std::vector<cv::Point>> polys = {ToPixels(layout.regions[i], px_per_mm)};
    cv::fillPoly(labels, polys, cv::Scalar(static_cast<int>(i)), cv::LINE_8, 4);
  }
  return labels;
}

LayoutTopology MeasureTopology(const Layout& layout, double px_per_mm) {
  const cv::Mat labels = RasterizeLayout(layout, px_per_mm);
  LayoutTopology t;
  const int n = static_cast<int>(layout.regions.size());
  t.edge_mm.assign(n, 0);
  t.area_mm2.assign(n, 0);
  const double step = 1.0 / px_per_mm;
  for (int y = 0; y < labels.rows; ++y) {
    const int* row = labels.ptr<int>(y);
    const int* below = y + 1 < labels.rows ? labels.ptr<int>(y + 1) : nullptr;
    for (int x = 0; x < labels.cols; ++x) {
      const int a = row[x];
      if (a < 0) {
        t.uncovered_mm2 += step * step;
        continue;
      }
      t.area_mm2[a] += step * step;
      if (y == 0 || y == labels.rows - 1) t.edge_mm[a] += step;
      if (x == 0 || x == labels.cols - 1) t.edge_mm[a] += step;
      auto contact = [&](int b) {
        if (b >= 0 && b != a) t.shared_mm[{std::min(a, b), std::max(a, b)}] += step;
      };
      if (x + 1 < labels.cols) contact(row[x + 1]);
      if (below) contact(below[x]);
    }
  }
  return t;
}

std::vector<std::string> CompareWithMap(const LayoutTopology& t, const engine::Map& map, double min_border_mm) {
  std::vector<std::string> problems;
  const int n = static_cast<int>(t.edge_mm.size());
  if (n != map.size()) {
    problems.push_back("the layout has " + std::to_string(n) + " regions, map " + map.key + " has " + std::to_string(map.size()));
    return problems;
  }
  auto shared = [&](int a, int b) {
    auto it = t.shared_mm.find({std::min(a, b), std::max(a, b)});
    return it == t.shared_mm.end() ? 0.0 : it->second;
  };
  char buf[200];
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      const double len = shared(a, b);
      if (map.Adjacent(a, b) && len < min_border_mm) {
        std::snprintf(buf, sizeof buf, "regions %d and %d border each other on the map but share %.1f mm in the layout", a, b, len);
        problems.emplace_back(buf);
      } else if (!map.Adjacent(a, b) && len >= min_border_mm) {
        std::snprintf(buf, sizeof buf, "regions %d and %d share %.1f mm of border in the layout but do not border each other on the map", a, b, len);
        problems.emplace_back(buf);
      }
    }
    if (map.regions[a].border && t.edge_mm[a] < min_border_mm) {
      std::snprintf(buf, sizeof buf, "region %d is a border region but touches the board edge along %.1f mm", a, t.edge_mm[a]);
      problems.emplace_back(buf);
    } else if (!map.regions[a].border && t.edge_mm[a] >= min_border_mm) {
      std::snprintf(buf, sizeof buf, "region %d is not a border region but touches the board edge along %.1f mm", a, t.edge_mm[a]);
      problems.emplace_back(buf);
    }
  }
  return problems;
}

}  // namespace swref::calibration
