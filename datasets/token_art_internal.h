// What the stand-in token art's files share (token_art.cpp designs the tokens, token_shapes.cpp holds the
// drawing geometry, token_symbols.cpp the races' symbols): not part of the datasets library's interface.
#pragma once

#include <functional>
#include <initializer_list>
#include <vector>

#include <opencv2/core.hpp>

#include "datasets/token_art.h"

namespace swref::datasets::token_art_internal {

using Pt = cv::Point2d;
using Poly = std::vector<Pt>;
using Shapes = std::vector<TokenShape>;
inline constexpr double kPi = 3.14159265358979323846;

inline cv::Scalar Rgb(int r, int g, int b) { return cv::Scalar(b, g, r); }
inline double Luma(const cv::Scalar& bgr) { return 0.114 * bgr[0] + 0.587 * bgr[1] + 0.299 * bgr[2]; }
inline cv::Scalar Grey(double v) { return cv::Scalar(v, v, v); }

// Geometry. Angles are in degrees in the design's own frame (x right, y down), so a positive angle turns
// clockwise as seen on paper.

// Points of an elliptic arc from a0 to a1 (either direction), both ends included.
Poly Arc(Pt c, double rx, double ry, double a0_deg, double a1_deg, int n);
Poly Ellipse(Pt c, double rx, double ry, double rot_deg = 0, int n = 40);
Poly Rect(double x0, double y0, double x1, double y1);
Poly Star(Pt c, int points, double r_out, double r_in, double rot_deg = -90);
Poly Join(std::initializer_list<Poly> parts);
Poly MirrorX(Poly p);
// A band of varying width along a path (a tapering tusk, a bow limb): left edge out, right edge back.
Poly Band(const Poly& path, const std::function<double(double)>& width_at);
Poly Bezier(Pt a, Pt b, Pt c, int n = 16);
TokenShape Fill(Poly p, cv::Scalar c);
TokenShape Outline(Poly p, cv::Scalar c, double w);
TokenShape Line(Poly p, cv::Scalar c, double w);
TokenShape Disc(Pt centre, double r, cv::Scalar c);
TokenShape Ring(Pt centre, double r, cv::Scalar c, double w);
// Turns (clockwise on paper), scales and shifts a group of shapes, e.g. to set a symbol at a jaunty angle.
Shapes Placed(Shapes shapes, double rot_deg, double scale = 1, Pt shift = {0, 0});
void Append(Shapes& to, const Shapes& more);

// Race symbols, about 20 mm across, drawn in `ink` with cut-outs in `bg` (the token's background).
struct Ink {
  cv::Scalar ink, bg;
};

Shapes Bow(const Ink& k);  // amazons: a drawn bow with its arrow
Shapes Axe(const Ink& k);  // dwarves: a double-bitted axe
Shapes Leaf(const Ink& k);  // elves: a leaf with its veins and stem
Shapes Ghost(const Ink& k);  // ghouls: a wailing ghost
Shapes Foot(const Ink& k);  // giants: a huge footprint
Shapes Flower(const Ink& k);  // halflings: a garden flower
Shapes Crown(const Ink& k);  // humans: a crown
Shapes OrcHead(const Ink& k);  // orcs: a scowling head with pointed ears and tusks over the lip
Shapes RatHead(const Ink& k);  // ratmen: a rat's head in profile, with its tail
Shapes Skull(const Ink& k);  // skeletons: a skull
Shapes Pentagram(const Ink& k);  // sorcerers: a pentagram in a circle
Shapes Trident(const Ink& k);  // tritons: a trident over a wave
Shapes Club(const Ink& k);  // trolls: a spiked club
Shapes Hat(const Ink& k);  // wizards: a pointed hat with stars

}  // namespace swref::datasets::token_art_internal
