// The stand-in tokens' drawing geometry: arcs, stars, bands and curves, and the shapes made of them.
#include <algorithm>
#include <cmath>

#include "datasets/token_art_internal.h"

namespace swref::datasets::token_art_internal {

// ---------------------------------------------------------------------------------------------------------------
// Geometry. Angles are in degrees in the design's own frame (x right, y down), so a positive angle turns
// clockwise as seen on paper.

// Points of an elliptic arc from a0 to a1 (either direction), both ends included.
Poly Arc(Pt c, double rx, double ry, double a0_deg, double a1_deg, int n) {
  Poly p;
  for (int i = 0; i <= n; ++i) {
    const double a = (a0_deg + (a1_deg - a0_deg) * i / n) * kPi / 180;
    p.emplace_back(c.x + rx * std::cos(a), c.y + ry * std::sin(a));
  }
  return p;
}

Poly Ellipse(Pt c, double rx, double ry, double rot_deg, int n) {
  Poly p = Arc({0, 0}, rx, ry, 0, 360.0 * (n - 1) / n, n - 1);
  const double a = rot_deg * kPi / 180, ca = std::cos(a), sa = std::sin(a);
  for (Pt& q : p) q = Pt(c.x + q.x * ca - q.y * sa, c.y + q.x * sa + q.y * ca);
  return p;
}

Poly Rect(double x0, double y0, double x1, double y1) { return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}; }

Poly Star(Pt c, int points, double r_out, double r_in, double rot_deg) {
  Poly p;
  for (int i = 0; i < 2 * points; ++i) {
    const double a = (rot_deg + 180.0 * i / points) * kPi / 180, r = i % 2 ? r_in : r_out;
    p.emplace_back(c.x + r * std::cos(a), c.y + r * std::sin(a));
  }
  return p;
}

Poly Join(std::initializer_list<Poly> parts) {
  Poly p;
  for (const Poly& part : parts) p.insert(p.end(), part.begin(), part.end());
  return p;
}

Poly MirrorX(Poly p) {
  for (Pt& q : p) q.x = -q.x;
  return p;
}

// A band of varying width along a path (a tapering tusk, a bow limb): left edge out, right edge back.
Poly Band(const Poly& path, const std::function<double(double)>& width_at) {
  Poly left, right;
  for (size_t i = 0; i < path.size(); ++i) {
    const Pt d = path[std::min(i + 1, path.size() - 1)] - path[i > 0 ? i - 1 : 0];
    const double len = std::hypot(d.x, d.y), w = width_at(static_cast<double>(i) / (path.size() - 1)) / 2;
    const Pt n(-d.y / len * w, d.x / len * w);
    left.push_back(path[i] + n);
    right.push_back(path[i] - n);
  }
  left.insert(left.end(), right.rbegin(), right.rend());
  return left;
}

Poly Bezier(Pt a, Pt b, Pt c, int n) {
  Poly p;
  for (int i = 0; i <= n; ++i) {
    const double t = static_cast<double>(i) / n;
    p.push_back((1 - t) * (1 - t) * a + 2 * (1 - t) * t * b + t * t * c);
  }
  return p;
}

// ---------------------------------------------------------------------------------------------------------------
// Shapes.

TokenShape Fill(Poly p, cv::Scalar c) { return {TokenShape::Type::kPolygon, std::move(p), 0, c, 0}; }
TokenShape Outline(Poly p, cv::Scalar c, double w) { return {TokenShape::Type::kPolygon, std::move(p), 0, c, w}; }
TokenShape Line(Poly p, cv::Scalar c, double w) { return {TokenShape::Type::kPolyline, std::move(p), 0, c, w}; }
TokenShape Disc(Pt centre, double r, cv::Scalar c) { return {TokenShape::Type::kCircle, {centre}, r, c, 0}; }
TokenShape Ring(Pt centre, double r, cv::Scalar c, double w) { return {TokenShape::Type::kCircle, {centre}, r, c, w}; }

// Turns (clockwise on paper), scales and shifts a group of shapes, e.g. to set a symbol at a jaunty angle.
Shapes Placed(Shapes shapes, double rot_deg, double scale, Pt shift) {
  const double a = rot_deg * kPi / 180, ca = std::cos(a), sa = std::sin(a);
  for (TokenShape& s : shapes) {
    for (Pt& q : s.points) q = Pt(shift.x + scale * (q.x * ca - q.y * sa), shift.y + scale * (q.x * sa + q.y * ca));
    s.radius_mm *= scale;
    s.line_mm *= scale;
  }
  return shapes;
}

void Append(Shapes& to, const Shapes& more) { to.insert(to.end(), more.begin(), more.end()); }

}  // namespace swref::datasets::token_art_internal
