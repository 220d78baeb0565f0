#include "datasets/layout_gen.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "calibration/board_setup.h"
#include "engine/planarity.h"
#include "engine/rng.h"

namespace swref::datasets {
namespace {

using Tri = std::array<int, 3>;  // counter-clockwise once embedded
using engine::Result;

constexpr double kMaxOverlapMm2 = 1;  // what the 2 px/mm raster check may see of two regions' shared border line

// The triangulated map: vertices 0..n-1 are regions, n is the outside, n+1.. are dummies of stellated faces.
struct Triangulation {
  int regions = 0;
  int vertices = 0;
  std::vector<Tri> triangles;      // without the outside vertex
  std::vector<int> rim;            // the outside vertex's neighbours in cyclic order
  std::vector<std::set<int>> neighbours;
  // A dummy inside a 4-face whose one diagonal pair borders each other elsewhere: that pair shares a short border
  // through the dummy, which keeps the other pair (that must not touch) apart. dummy -> the pair kept apart.
  std::map<int, std::pair<int, int>> split;
  bool Dummy(int v) const { return v > regions; }
};

Result<Triangulation> Triangulate(const engine::Map& map) {
  using R = Result<Triangulation>;
  const int n = map.size(), outside = n;
  std::vector<std::pair<int, int>> edges;
  for (int a = 0; a < n; ++a) {
    for (int b : map.neighbours[a])
      if (a < b) edges.emplace_back(a, b);
    if (map.regions[a].border) edges.emplace_back(a, outside);
  }
  const engine::PlanarityResult planar = engine::TestPlanarity(n + 1, edges);
  if (!planar.planar) return R::Error("map " + map.key + ": the map plus the outside is not planar" + (planar.error.empty() ? "" : ": " + planar.error));
  Triangulation t;
  t.regions = n;
  t.vertices = n + 1;
  std::vector<Tri> all;
  for (const std::vector<int>& face : engine::FacesOfRotation(planar.rotation)) {
    if (std::set<int>(face.begin(), face.end()).size() != face.size() || face.size() < 3)
      return R::Error("map " + map.key + ": a region is a cut point of the map (a face of the map visits it twice); layouts need every region to "
                      "border its neighbours in one ring");
    if (face.size() == 3) {
      all.push_back({face[0], face[1], face[2]});
      continue;
    }
    const int dummy = t.vertices++;
    for (size_t i = 0; i < face.size(); ++i) all.push_back({dummy, face[i], face[(i + 1) % face.size()]});
    auto borders = [&](int a, int b) { return a < n && b < n && map.Adjacent(a, b); };
    const bool inside = std::find(face.begin(), face.end(), outside) == face.end();
    if (face.size() == 4 && inside && borders(face[0], face[2]) && !borders(face[1], face[3])) t.split[dummy] = {face[1], face[3]};
    if (face.size() == 4 && inside && borders(face[1], face[3]) && !borders(face[0], face[2])) t.split[dummy] = {face[0], face[2]};
  }
  // The outside's link, in order: each triangle (outside, x, y) contributes x -> y.
  std::map<int, int> next;
  for (const Tri& tri : all) {
    const auto it = std::find(tri.begin(), tri.end(), outside);
    if (it == tri.end()) {
      t.triangles.push_back(tri);
      continue;
    }
    const int k = static_cast<int>(it - tri.begin());
    next[tri[(k + 1) % 3]] = tri[(k + 2) % 3];
  }
  if (next.empty()) return R::Error("map " + map.key + ": no border region");
  int v = next.begin()->first;
  do {
    t.rim.push_back(v);
    v = next[v];
  } while (v != t.rim.front() && t.rim.size() <= next.size());
  if (t.rim.size() != next.size()) return R::Error("map " + map.key + ": the border regions do not form one ring around the board");
  t.neighbours.assign(t.vertices, {});
  for (const Tri& tri : t.triangles)
    for (int i = 0; i < 3; ++i) t.neighbours[tri[i]].insert(tri[(i + 1) % 3]), t.neighbours[tri[(i + 1) % 3]].insert(tri[i]);
  return t;
}

double SignedArea(const cv::Point2d& a, const cv::Point2d& b, const cv::Point2d& c) {
  return 0.5 * ((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y));
}

constexpr double kFourRootThree = 6.928203230275509;

double SumOfSquaredSides(const cv::Point2d& a, const cv::Point2d& b, const cv::Point2d& c) {
  return (b - a).dot(b - a) + (c - b).dot(c - b) + (a - c).dot(a - c);
}

// 1 for an equilateral triangle, larger for thinner ones (the mean-ratio quality measure).
double MeanRatio(const cv::Point2d& a, const cv::Point2d& b, const cv::Point2d& c, double area) {
  return SumOfSquaredSides(a, b, c) / (kFourRootThree * area);
}

// The angle from a to b counter-clockwise on the unit circle, and the area between that arc and its chord.
double Arc(const cv::Point2d& a, const cv::Point2d& b) {
  const double d = std::atan2(b.y, b.x) - std::atan2(a.y, a.x);
  return d < 0 ? d + 2 * M_PI : d;
}
double CapArea(const cv::Point2d& a, const cv::Point2d& b) {
  const double theta = Arc(a, b);
  return 0.5 * (theta - std::sin(theta));
}

// Tutte's barycentric embedding with the rim fixed on the unit circle (Gauss-Seidel).
std::vector<cv::Point2d> Embed(Triangulation& t) {
  std::vector<cv::Point2d> p(t.vertices, {0, 0});
  std::vector<bool> fixed(t.vertices, false);
  fixed[t.regions] = true;  // the outside vertex is not drawn
  const int k = static_cast<int>(t.rim.size());
  for (int i = 0; i < k; ++i) {
    const double angle = 2 * M_PI * i / k;
    p[t.rim[i]] = {std::cos(angle), std::sin(angle)};
    fixed[t.rim[i]] = true;
  }
  for (int iter = 0; iter < 20000; ++iter) {
    double moved = 0;
    for (int v = 0; v < t.vertices; ++v) {
      if (fixed[v] || t.neighbours[v].empty()) continue;
      cv::Point2d sum(0, 0);
      for (int u : t.neighbours[v]) sum += p[u];
      const cv::Point2d q = sum / static_cast<double>(t.neighbours[v].size());
      moved = std::max(moved, cv::norm(q - p[v]));
      p[v] = q;
    }
    if (moved < 1e-12) break;
  }
  // Orient every triangle counter-clockwise (the face tracing may have gone either way round).
  for (Tri& tri : t.triangles)
    if (SignedArea(p[tri[0]], p[tri[1]], p[tri[2]]) < 0) std::swap(tri[1], tri[2]);
  return p;
}

// Evens out the regions' areas (a third of each incident triangle, plus the rim's caps) by gradient descent on
// the squared log-ratios of area to mean; rim
// vertices slide along the rim. A step that would flip or flatten a triangle is halved, so the drawing stays
// planar (and the rim keeps its order).
void Relax(const Triangulation& t, int iterations, std::vector<cv::Point2d>& p) {
  constexpr double kBarrier = 1e-4, kShape = 0.02;
  std::vector<bool> movable(t.vertices, true), rim(t.vertices, false);
  movable[t.regions] = false;
  for (int v : t.rim) rim[v] = true;
  auto energy = [&](const std::vector<cv::Point2d>& q, std::vector<double>* area) {
    area->assign(t.vertices, 0);
    double min_tri = 1e9;
    for (const Tri& tri : t.triangles) {
      const double a = SignedArea(q[tri[0]], q[tri[1]], q[tri[2]]);
      min_tri = std::min(min_tri, a);
      for (int v : tri) (*area)[v] += a / 3;
    }
    if (!(min_tri > 1e-12)) return 1e300;  // flipped, flattened or not a number: reject
    for (size_t i = 0; i < t.rim.size(); ++i) {  // the circular caps beyond the rim's chords belong to rim regions
      const int a = t.rim[i], b = t.rim[(i + 1) % t.rim.size()];
      const double cap = CapArea(q[a], q[b]);
      if (t.Dummy(a) || t.Dummy(b)) (*area)[t.Dummy(a) ? b : a] += cap;
      else (*area)[a] += cap / 2, (*area)[b] += cap / 2;
    }
    double mean = 0;
    for (int v = 0; v < t.regions; ++v) mean += (*area)[v];
    mean /= t.regions;
    double e = 0;  // squared log-ratios: a region half the mean weighs as much as one twice the mean
    for (int v = 0; v < t.regions; ++v) e += std::pow(std::log((*area)[v] / mean), 2);
    double barrier = 0, shape = 0;  // the barrier keeps thin triangles from blocking the descent
    for (const Tri& tri : t.triangles) {
      const double a = SignedArea(q[tri[0]], q[tri[1]], q[tri[2]]);
      barrier += mean / a;
      shape += MeanRatio(q[tri[0]], q[tri[1]], q[tri[2]], a) - 1;
    }
    return e + kBarrier * barrier + kShape * shape;
  };
  std::vector<double> area;
  double e = energy(p, &area);
  std::vector<double> step(t.vertices, 0.05);
  for (int iter = 0; iter < iterations; ++iter) {
    double mean = 0;
    for (int v = 0; v < t.regions; ++v) mean += area[v];
    mean /= t.regions;
    std::vector<cv::Point2d> grad(t.vertices, {0, 0});
    for (const Tri& tri : t.triangles) {
      const double a = SignedArea(p[tri[0]], p[tri[1]], p[tri[2]]);
      double w = -kBarrier * mean / (a * a);  // d(energy)/d(triangle area)
      for (int v : tri)
        if (v < t.regions) w += 2 * std::log(area[v] / mean) / (3 * area[v]);
      const double sum_sq = SumOfSquaredSides(p[tri[0]], p[tri[1]], p[tri[2]]);
      for (int i = 0; i < 3; ++i) {
        const cv::Point2d& x = p[tri[i]];
        const cv::Point2d& b = p[tri[(i + 1) % 3]];
        const cv::Point2d& c = p[tri[(i + 2) % 3]];
        const cv::Point2d d_area = 0.5 * cv::Point2d(b.y - c.y, c.x - b.x);
        const cv::Point2d d_sum_sq = 2.0 * (2.0 * x - b - c);
        grad[tri[i]] += w * d_area + kShape * (d_sum_sq * a - sum_sq * d_area) / (kFourRootThree * a * a);
      }
    }
    for (int v = 0; v < t.vertices; ++v) {
      if (!rim[v]) continue;
      const cv::Point2d tangent(-p[v].y, p[v].x);
      grad[v] = tangent * grad[v].dot(tangent);
    }
    for (size_t i = 0; i < t.rim.size(); ++i) {  // caps: d(cap)/d(angle of b) = (1 - cos(arc)) / 2 = -d(cap)/d(angle of a)
      const int a = t.rim[i], b = t.rim[(i + 1) % t.rim.size()];
      auto dE = [&](int v) { return v < t.regions ? 2 * std::log(area[v] / mean) / area[v] : 0.0; };
      const double share = t.Dummy(a) ? dE(b) : t.Dummy(b) ? dE(a) : (dE(a) + dE(b)) / 2;
      const double d_cap = share * 0.5 * (1 - std::cos(Arc(p[a], p[b])));
      grad[b] += cv::Point2d(-p[b].y, p[b].x) * d_cap;
      grad[a] -= cv::Point2d(-p[a].y, p[a].x) * d_cap;
    }
    double norm = 0;
    for (int v = 0; v < t.vertices; ++v)
      if (movable[v]) norm = std::max(norm, cv::norm(grad[v]));
    if (norm < 1e-15) break;
    // Each vertex moves on its own step size, so that one vertex boxed in by thin triangles does not stall all.
    bool moved = false;
    for (int v = 0; v < t.vertices; ++v) {
      if (!movable[v] || cv::norm(grad[v]) < 1e-15) continue;
      const cv::Point2d old = p[v];
      p[v] -= grad[v] * (step[v] / norm);
      if (rim[v]) p[v] /= cv::norm(p[v]);
      std::vector<double> q_area;
      const double qe = energy(p, &q_area);
      if (qe < e) {
        area.swap(q_area), e = qe, step[v] *= 1.3, moved = true;
      } else {
        p[v] = old, step[v] *= 0.5;
      }
    }
    if (!moved && *std::max_element(step.begin(), step.end()) < 1e-9) break;
  }
}

// A point of a region's outline: fixed junctions carry a key shared by every region that meets there, so that a
// border wiggles the same way seen from both sides. `rim` points lie on the board's edge.
struct Node {
  cv::Point2d p;
  int64_t key;
  bool rim;
  bool straight = false;  // segments touching this node are not wiggled
};

int64_t EdgeKey(int a, int b, int vertices) { return (int64_t{1} << 40) | (int64_t{std::min(a, b)} * vertices + std::max(a, b)); }
int64_t VertexKey(int v) { return int64_t{2} << 40 | v; }
int64_t TriangleKey(const Tri& t) {
  Tri s = t;
  std::sort(s.begin(), s.end());
  return int64_t{3} << 40 | (int64_t{s[0]} << 26 | int64_t{s[1]} << 13 | s[2]);
}

cv::Point2d OnCircle(double angle) { return {std::cos(angle), std::sin(angle)}; }

// Points along the unit circle from angle a to angle b the short way round (b excluded).
void ArcPoints(double a, double b, std::vector<cv::Point2d>* out) {
  double d = std::remainder(b - a, 2 * M_PI);
  const int steps = std::max(2, static_cast<int>(std::abs(d) / 0.02));
  for (int i = 0; i < steps; ++i) out->push_back(OnCircle(a + d * i / steps));
}

std::vector<std::vector<Node>> Outlines(const Triangulation& t, const std::vector<cv::Point2d>& p) {
  std::vector<std::map<int, int>> succ(t.vertices);  // around v counter-clockwise: succ[v][u] follows u
  for (const Tri& tri : t.triangles)
    for (int i = 0; i < 3; ++i) succ[tri[i]][tri[(i + 1) % 3]] = tri[(i + 2) % 3];
  std::set<int> on_rim(t.rim.begin(), t.rim.end());
  auto centroid = [&](int a, int b, int c) { return Node{(p[a] + p[b] + p[c]) / 3.0, TriangleKey({a, b, c}), false}; };
  auto toward = [&](int v, int u) {  // the point where the border of v toward (non-dummy) u is anchored
    return Node{(p[v] + p[u]) / 2.0, EdgeKey(v, u, t.vertices), false};
  };
  // Regions meeting at a dummy would touch at one point: each stops a little short of it instead, leaving a speck
  // under the border line, so that regions that must not border each other do not touch at all. A border running
  // into the dummy is shared up to `near` (most of the way), then the two sides part.
  auto near = [&](int v, int w, int d) {
    const Node c = centroid(v, w, d);
    return Node{c.p + 0.85 * (p[d] - c.p), c.key ^ (int64_t{1} << 44), false};
  };
  auto speck = [&](int d, int v) {
    const cv::Point2d mid = (p[v] + p[d]) / 2.0;
    return Node{p[d] + 0.05 * (mid - p[d]), int64_t{5} << 40 | (int64_t{d} * t.vertices + v), false, true};
  };
  auto rim_point = [&](int v, int u) {  // where v's stretch of the rim ends toward its rim neighbour u
    if (t.Dummy(u)) return Node{p[u], VertexKey(u), true, true};
    const double a = std::atan2(p[v].y, p[v].x), b = std::atan2(p[u].y, p[u].x);
    return Node{OnCircle(a + std::remainder(b - a, 2 * M_PI) / 2), EdgeKey(v, u, t.vertices), true};
  };
  // At a split dummy, the two regions kept apart each get their own point a little toward themselves.
  auto split_point = [&](int d, int v) {
    const cv::Point2d mid = (p[d] + p[v]) / 2.0;
    const bool first = t.split.at(d).first == v;
    return Node{p[d] + 0.3 * (mid - p[d]), VertexKey(d) * 4 + (first ? 1 : 2), false};
  };
  auto anchor = [&](int v, int u, int before, int after, std::vector<Node>* out) {  // v's border points toward u
    if (!t.Dummy(u)) return out->push_back(toward(v, u));
    auto it = t.split.find(u);
    if (it == t.split.end()) {
      out->push_back(near(v, before, u));
      out->push_back(speck(u, v));
      out->push_back(near(v, after, u));
      return;
    }
    const auto [a, b] = it->second;
    if (v == a || v == b) return out->push_back(split_point(u, v));
    out->push_back(split_point(u, before == a ? a : b));  // from the side of the region before u to the other
    out->push_back(split_point(u, before == a ? b : a));
  };
  std::vector<std::vector<Node>> outlines(t.regions);
  for (int v = 0; v < t.regions; ++v) {
    std::vector<Node>& out = outlines[v];
    const bool rim = on_rim.count(v) > 0;
    int start = succ[v].begin()->first;
    if (rim) {  // start at the neighbour nothing precedes: the fan runs from one rim neighbour to the other
      std::set<int> followers;
      for (auto [u, w] : succ[v]) followers.insert(w);
      for (auto [u, w] : succ[v])
        if (!followers.count(u)) start = u;
    }
    std::vector<int> ring = {start};  // v's neighbours counter-clockwise
    for (auto it = succ[v].find(start); it != succ[v].end() && it->second != start; it = succ[v].find(it->second)) ring.push_back(it->second);
    const int k = static_cast<int>(ring.size());
    if (rim) {
      out.push_back(rim_point(v, ring.front()));
      if (t.Dummy(ring.front())) out.push_back(near(v, ring[1], ring.front()));
    }
    for (int i = 0; i < k; ++i) {
      if (rim && i == k - 1) break;  // the last rim neighbour: the outline turns onto the rim
      if (!rim || i > 0) anchor(v, ring[i], ring[(i + k - 1) % k], ring[(i + 1) % k], &out);
      out.push_back(centroid(v, ring[i], ring[(i + 1) % k]));
    }
    if (rim) {
      if (t.Dummy(ring.back())) out.push_back(near(v, ring[k - 2], ring.back()));
      const Node end = rim_point(v, ring.back());
      out.push_back(end);
      std::vector<cv::Point2d> arc;
      const double a_end = std::atan2(end.p.y, end.p.x), a_v = std::atan2(p[v].y, p[v].x);
      const double a_start = std::atan2(out.front().p.y, out.front().p.x);
      ArcPoints(a_end, a_v, &arc);
      ArcPoints(a_v, a_start, &arc);
      for (size_t i = 1; i < arc.size(); ++i) out.push_back(Node{arc[i], -1, true});
    }
  }
  return outlines;
}

// The wiggled points strictly between two junctions, the same for (a, b) and reversed for (b, a).
std::vector<cv::Point2d> Wiggle(const Node& a, const Node& b, double amplitude, uint64_t seed) {
  if (a.key > b.key) {
    std::vector<cv::Point2d> pts = Wiggle(b, a, amplitude, seed);
    std::reverse(pts.begin(), pts.end());
    return pts;
  }
  engine::Rng rng(seed ^ static_cast<uint64_t>(a.key) * 0x9e3779b97f4a7c15ULL ^ static_cast<uint64_t>(b.key) * 0xc2b2ae3d27d4eb4fULL);
  const cv::Point2d d = b.p - a.p;
  const double length = cv::norm(d);
  if (!(length > 1e-9)) return {};
  const cv::Point2d normal(-d.y / length, d.x / length);
  double c[3];
  for (int k = 0; k < 3; ++k) c[k] = (static_cast<double>(rng.Below(2001)) / 1000.0 - 1.0) / (k + 1);
  const int steps = std::max(4, static_cast<int>(length / 0.01));
  std::vector<cv::Point2d> pts;
  for (int i = 1; i < steps; ++i) {
    const double s = static_cast<double>(i) / steps;
    double offset = 0;
    for (int k = 0; k < 3; ++k) offset += c[k] * std::sin((k + 1) * M_PI * s);
    cv::Point2d q = a.p + d * s + normal * (amplitude * length * offset);
    const double r = cv::norm(q);
    if (r > 0.999) q *= 0.999 / r;  // stay on the board
    pts.push_back(q);
  }
  return pts;
}

// Fong's elliptical grid mapping, disk -> square, then the square onto the board (y down).
cv::Point2d ToBoard(const cv::Point2d& q, const cv::Size2d& board) {
  const double u = q.x, v = q.y, r2 = 2 * std::sqrt(2.0);
  auto s = [](double x) { return std::sqrt(std::max(0.0, x)); };
  const double x = 0.5 * s(2 + u * u - v * v + r2 * u) - 0.5 * s(2 + u * u - v * v - r2 * u);
  const double y = 0.5 * s(2 - u * u + v * v + r2 * v) - 0.5 * s(2 - u * u + v * v - r2 * v);
  return {std::clamp((x + 1) / 2, 0.0, 1.0) * board.width, std::clamp((1 - y) / 2, 0.0, 1.0) * board.height};
}

calibration::Layout Draw(const engine::Map& map, const std::vector<std::vector<Node>>& outlines, const LayoutOptions& o, double amplitude) {
  calibration::Layout layout;
  layout.map = map.key;
  layout.board_mm = o.board_mm;
  for (const std::vector<Node>& outline : outlines) {
    std::vector<cv::Point2d> polygon;
    for (size_t i = 0; i < outline.size(); ++i) {
      const Node& a = outline[i];
      const Node& b = outline[(i + 1) % outline.size()];
      polygon.push_back(ToBoard(a.p, o.board_mm));
      if ((a.rim && b.rim) || a.straight || b.straight) continue;  // the board's edge and the specks stay straight
      for (const cv::Point2d& q : Wiggle(a, b, amplitude, o.seed)) polygon.push_back(ToBoard(q, o.board_mm));
    }
    layout.regions.push_back(std::move(polygon));
  }
  return layout;
}

}  // namespace

std::string LayoutOptions::Check() const {
  if (board_mm.width < 100 || board_mm.height < 100) return "board_mm: at least 100 x 100 mm";
  if (wiggle < 0 || wiggle > 0.3) return "wiggle: from 0 to 0.3";
  if (relax_iterations < 0) return "relax_iterations: at least 0";
  return "";
}

Result<calibration::Layout> GenerateLayout(const engine::Map& map, const LayoutOptions& options) {
  using R = Result<calibration::Layout>;
  if (auto problem = options.Check(); !problem.empty()) return R::Error("layout options: " + problem);
  auto triangulation = Triangulate(map);
  if (!triangulation) return R::Error(triangulation.error());
  Triangulation& t = *triangulation;
  std::vector<cv::Point2d> p = Embed(t);
  Relax(t, options.relax_iterations, p);
  const std::vector<std::vector<Node>> outlines = Outlines(t, p);
  std::vector<std::string> problems;
  // A wiggle can push a border across a narrow neighbour: try other wiggles, then smaller ones.
  for (double amplitude = options.wiggle;; amplitude = amplitude > 0.02 ? amplitude * 0.6 : 0) {
    for (int attempt = 0; attempt < (amplitude > 0 ? 4 : 1); ++attempt) {
      LayoutOptions o = options;
      o.seed = options.seed + 7919ULL * attempt;
      calibration::Layout layout = Draw(map, outlines, o, amplitude);
      problems = calibration::CompareWithMap(calibration::MeasureTopology(layout, 2.0), map);
      // Where several regions meet, a wiggle may also push one border over another: regions must not overlap.
      if (problems.empty()) problems = calibration::FindOverlaps(layout, kMaxOverlapMm2);
      if (problems.empty()) return layout;
    }
    if (amplitude == 0) break;
  }
  std::string all;
  for (const auto& p : problems) all += "\n  " + p;
  return R::Error("map " + map.key + ": the generated layout does not match the map:" + all);
}

}  // namespace swref::datasets
