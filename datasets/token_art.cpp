// Stand-in token art (token_art.h). Every design is a handful of polygons, circles and polylines in millimetres,
// so that the camera simulator's raster (RenderToken) and the printable PDF (token_pdf.cpp) draw the very same
// token. The designs aim at what a camera classifier needs: 14 active colours well apart in lightness as well as
// hue (a warm lamp or a cool window shifts hue far more than lightness), one bold high-contrast symbol per race
// that survives on the grey decline side, and pieces whose footprints differ in shape from the race tokens.
#include "datasets/token_art.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>

#include <opencv2/imgproc.hpp>

#include "datasets/token_art_internal.h"
#include "engine/components.h"

namespace swref::datasets {
using namespace token_art_internal;
namespace {

// ---------------------------------------------------------------------------------------------------------------
// Footprints.

// A squarish token with softly rounded corners (a superellipse), slightly out of true as die-cut cardboard is.
// `exponent` sets how square it is (2: an ellipse; 5: almost a square); `seed` varies the wobble per race.
Poly Squircle(double half_w, double half_h, double exponent, int seed, double wobble = 0.012) {
  Poly p;
  const int n = 96;
  for (int i = 0; i < n; ++i) {
    const double t = 2 * kPi * i / n, c = std::cos(t), s = std::sin(t);
    const double r = 1 + wobble * (std::sin(3 * t + seed * 1.7) + 0.6 * std::sin(5 * t + seed * 2.9));
    p.emplace_back(r * half_w * std::copysign(std::pow(std::abs(c), 2 / exponent), c),
                   r * half_h * std::copysign(std::pow(std::abs(s), 2 / exponent), s));
  }
  return p;
}

Poly Scaled(Poly p, double k) {
  for (Pt& q : p) q *= k;
  return p;
}


const cv::Scalar kCardboardEdge = Rgb(172, 158, 132);  // grey-brown pulp board, as the edge of real tokens

// The footprint filled with the background, then a thin ring in the ink colour 1.3 mm inside the cut line.
TokenDesign Framed(std::string kind, Poly outline, cv::Scalar bg, cv::Scalar ring) {
  TokenDesign d;
  d.kind = std::move(kind);
  d.size_mm = Bounds(outline).width;
  d.outline = outline;
  d.edge_bgr = kCardboardEdge;
  d.shapes.push_back(Fill(outline, bg));
  d.shapes.push_back(Outline(Scaled(outline, 1 - 2 * 1.3 / d.size_mm), ring, 0.45));
  return d;
}

// ---------------------------------------------------------------------------------------------------------------
// Races.

struct RaceStyle {
  engine::Race race;
  cv::Scalar bg, ink;
  double exponent, aspect;  // footprint: squareness, width / height
  Shapes (*symbol)(const Ink&);
};

const cv::Scalar kLightInk = Rgb(250, 246, 232), kDarkInk = Rgb(38, 30, 26);

// Colours chosen by measuring the CIE Lab distance between the rendered tokens' mean colours (symbol included, as a
// blurry camera sees them; tests/datasets/token_art_test.cpp prints the closest pair). Hues go round the circle and
// neighbours in hue differ in lightness (olive orcs vs green elves, red dwarves vs chestnut ratmen); the crowded
// blue-violet corner is split by lightness (dark navy humans, sky-blue wizards, light lavender sorcerers) and the
// ghouls moved to plum. Inks are near-neutral: they dilute a colour instead of pulling it towards another hue
// (a gold crown on blue averaged to grey and sat on top of the purple ghouls).
const std::vector<RaceStyle>& RaceStyles() {
  using engine::Race;
  static const std::vector<RaceStyle> styles = {
      {Race::kAmazons, Rgb(214, 48, 146), kLightInk, 4.0, 1.00, Bow},
      {Race::kDwarves, Rgb(186, 28, 32), kLightInk, 5.0, 1.00, Axe},
      {Race::kElves, Rgb(52, 168, 70), kLightInk, 3.6, 0.98, Leaf},
      {Race::kGhouls, Rgb(142, 24, 92), Rgb(236, 240, 228), 4.4, 1.00, Ghost},
      {Race::kGiants, Rgb(238, 128, 26), kDarkInk, 5.5, 1.02, Foot},
      {Race::kHalflings, Rgb(244, 212, 52), Rgb(110, 62, 20), 3.8, 1.00, Flower},
      {Race::kHumans, Rgb(18, 40, 132), Rgb(255, 236, 180), 4.8, 1.00, Crown},
      {Race::kOrcs, Rgb(104, 112, 28), Rgb(238, 230, 196), 4.2, 1.03, OrcHead},
      {Race::kRatmen, Rgb(138, 72, 34), kLightInk, 3.4, 1.00, RatHead},
      {Race::kSkeletons, Rgb(232, 226, 206), kDarkInk, 4.6, 0.98, Skull},
      {Race::kSorcerers, Rgb(170, 124, 224), kLightInk, 5.2, 1.00, Pentagram},
      {Race::kTritons, Rgb(18, 150, 156), kLightInk, 3.9, 1.00, Trident},
      {Race::kTrolls, Rgb(46, 50, 58), Rgb(180, 220, 120), 4.5, 1.02, Club},
      {Race::kWizards, Rgb(112, 188, 236), Rgb(20, 34, 96), 4.1, 1.00, Hat},
  };
  return styles;
}

// The decline side keeps the symbol but goes grey: the background a mid grey whose shade still follows the active
// colour's lightness (a hint a classifier may use), the symbol near-white or near-black so it stays as contrasted
// as on the active side. Its footprint is the active one mirrored left to right: a flipped token shows its cut
// outline mirrored, and it lets the PDF print the decline sides behind the active ones (token_pdf.cpp).
TokenDesign RaceDesign(const RaceStyle& style, int index, bool decline) {
  const std::string id(engine::Info(style.race).id);
  Poly outline = Squircle(12.5 * std::sqrt(style.aspect), 12.5 / std::sqrt(style.aspect), style.exponent, index + 1);
  Ink ink{style.ink, style.bg};
  if (decline) {
    outline = MirrorX(outline);
    ink.bg = Grey(122 + 0.2 * Luma(style.bg));
    ink.ink = Grey(Luma(style.ink) > Luma(style.bg) ? 236 : 44);
  }
  TokenDesign d = Framed(decline ? id + "_decline" : id, outline, ink.bg, ink.ink);
  Append(d.shapes, style.symbol(ink));
  return d;
}

// ---------------------------------------------------------------------------------------------------------------
// Lost tribe and pieces.

TokenDesign LostTribe() {
  const cv::Scalar bg = Rgb(224, 198, 142), ink = Rgb(104, 60, 28);
  TokenDesign d = Framed("lost_tribe", Squircle(12.5, 12.5, 2.7, 17, 0.018), bg, ink);
  Shapes& s = d.shapes;
  s.push_back(Fill({{-6.2, -1.0}, {-9.2, -2.6}, {-9.0, 1.8}, {-6.0, 2.0}}, ink));  // ears
  s.push_back(Fill({{6.2, -1.0}, {9.2, -2.6}, {9.0, 1.8}, {6.0, 2.0}}, ink));
  s.push_back(Fill(Ellipse({0, 0.4}, 6.4, 8.8), ink));
  Poly zigzag;
  for (int i = 0; i <= 8; ++i) zigzag.emplace_back(-4.0 + i, i % 2 ? -6.4 : -5.2);
  s.push_back(Line(zigzag, bg, 0.5));
  s.push_back(Fill({{-4.6, -2.4}, {-1.2, -3.0}, {-1.0, -1.6}, {-4.0, -1.0}}, bg));  // slanted eyes
  s.push_back(Fill({{4.6, -2.4}, {1.2, -3.0}, {1.0, -1.6}, {4.0, -1.0}}, bg));
  s.push_back(Fill({{0, -1.8}, {-1.0, 2.2}, {1.0, 2.2}}, bg));
  s.push_back(Fill(Rect(-2.8, 3.6, 2.8, 5.8), bg));
  for (double x : {-1.4, 0.0, 1.4}) s.push_back(Line({{x, 3.6}, {x, 5.8}}, ink, 0.45));
  s.push_back(Line({{-3.8, 7.0}, {3.8, 7.0}}, bg, 0.4));
  return d;
}

TokenDesign Mountain() {  // three snow-capped peaks, lit from the left; the cut line follows the ridge
  // Slate-blue rock and a bright green foot: a brown-grey mountain piece vanished against the board's own brown-grey
  // mountain terrain, for a camera as for a player.
  const cv::Scalar rock = Rgb(96, 110, 150), shade = Rgb(54, 62, 96), snow = Rgb(248, 248, 244);
  const cv::Scalar foot = Rgb(92, 150, 64);
  const Poly outline = {{-16.0, 8.0}, {-14.8, 2.6}, {-12.4, -1.2}, {-8.4, -8.0}, {-5.6, -4.2}, {-1.0, -14.2},
                        {3.6, -6.4},  {8.6, -10.4}, {12.4, -3.4},  {14.6, 0.6},  {16.0, 6.4},  {14.4, 10.0},
                        {8.0, 11.4},  {0.0, 11.8},  {-8.0, 11.4},  {-14.2, 10.4}};
  TokenDesign d;
  d.kind = "mountain";
  d.size_mm = Bounds(outline).width;
  d.outline = outline;
  d.edge_bgr = kCardboardEdge;
  Shapes& s = d.shapes;
  s.push_back(Fill(outline, rock));
  // Shadowed faces: from each summit down its right-hand slope, back up a ridge line.
  s.push_back(Fill({{-8.4, -8.0}, {-5.6, -4.2}, {-4.6, 1.0}, {-7.8, 4.0}, {-7.4, -3.0}}, shade));
  s.push_back(Fill({{-1.0, -14.2}, {3.6, -6.4}, {4.6, -1.0}, {2.0, 5.0}, {0.4, -5.0}}, shade));
  s.push_back(Fill({{8.6, -10.4}, {12.4, -3.4}, {14.6, 0.6}, {13.6, 5.6}, {9.6, 2.6}, {9.4, -4.0}}, shade));
  // Snow caps with ragged lower edges.
  s.push_back(
      Fill({{-1.0, -14.2}, {1.5, -10.0}, {0.6, -9.4}, {-0.2, -10.4}, {-1.2, -9.0}, {-2.2, -10.2}, {-3.1, -9.4}}, snow));
  s.push_back(Fill({{-8.4, -8.0}, {-6.9, -6.0}, {-7.6, -5.6}, {-8.3, -6.4}, {-9.1, -5.4}, {-9.9, -5.6}}, snow));
  s.push_back(Fill({{8.6, -10.4}, {9.8, -8.2}, {9.0, -7.8}, {8.4, -8.8}, {7.6, -7.6}, {7.0, -8.6}}, snow));
  // A grassy foot with a few boulders.
  const Poly foot_outline = {{-15.6, 7.6}, {-8.0, 6.4}, {0, 7.6},    {8.0, 6.2},   {15.6, 7.0},
                             {14.4, 10.0}, {8.0, 11.4}, {0.0, 11.8}, {-8.0, 11.4}, {-14.2, 10.4}};
  s.push_back(Fill(foot_outline, foot));
  for (const Pt& p : Poly{{-11.0, 9.0}, {-4.6, 9.8}, {3.0, 9.4}, {10.4, 8.8}})
    s.push_back(Fill(Ellipse(p, 1.1, 0.55, p.x * 3), shade));
  return d;
}

TokenDesign TrollLair() {  // an arched cave mouth in a mossy hill; the footprint is an arch
  const cv::Scalar moss = Rgb(38, 86, 46), stone = Rgb(112, 140, 104), black = Rgb(16, 18, 14);
  const Poly outline = Join({{{14.0, 14.0}, {-14.0, 14.0}}, Arc({0, 0}, 14.0, 14.0, 180, 360, 40)});
  TokenDesign d = Framed("troll_lair", outline, moss, stone);
  Shapes& s = d.shapes;
  const Poly mouth = Join({{{7.0, 12.0}, {-7.0, 12.0}}, Arc({0, 4.0}, 7.0, 8.0, 180, 360, 24)});
  s.push_back(Fill(Join({{{9.6, 12.0}, {-9.6, 12.0}}, Arc({0, 4.0}, 9.6, 10.6, 180, 360, 24)}), stone));
  for (int i = 0; i < 7; ++i) {  // the joints between the arch's stones
    const double a = (180 + 180.0 * (i + 0.5) / 7) * kPi / 180;
    s.push_back(Line({{7.0 * std::cos(a), 4.0 + 8.0 * std::sin(a)}, {9.6 * std::cos(a), 4.0 + 10.6 * std::sin(a)}},
                     moss, 0.45));
  }
  s.push_back(Fill(mouth, black));
  s.push_back(Disc({-2.6, 1.8}, 0.7, Rgb(240, 210, 60)));  // eyes glinting in the dark
  s.push_back(Disc({1.2, 1.8}, 0.7, Rgb(240, 210, 60)));
  for (double x : {-11.5, 10.8})
    s.push_back(Line({{x - 1.0, 12.4}, {x, 9.6}, {x + 0.6, 12.4}, {x + 1.6, 10.2}}, stone, 0.5));
  return d;
}

TokenDesign Fortress() {  // a castle: walls and a central keep, crenellations along the cut line
  const cv::Scalar stone = Rgb(152, 152, 146), mortar = Rgb(86, 86, 82), door = Rgb(60, 36, 22);
  const Poly outline = {{-14, 13},  {-14, -5},   {-11.4, -5},  {-11.4, -2.6}, {-9.2, -2.6}, {-9.2, -5},
                        {-6, -5},   {-6, -11},   {-3.6, -11},  {-3.6, -8.6},  {-1.2, -8.6}, {-1.2, -11},
                        {1.2, -11}, {1.2, -8.6}, {3.6, -8.6},  {3.6, -11},    {6, -11},     {6, -5},
                        {9.2, -5},  {9.2, -2.6}, {11.4, -2.6}, {11.4, -5},    {14, -5},     {14, 13}};
  TokenDesign d = Framed("fortress", outline, stone, mortar);
  Shapes& s = d.shapes;
  for (double y = 1.0; y < 12.5; y += 2.6) s.push_back(Line({{-12.4, y}, {12.4, y}}, mortar, 0.35));
  for (double y = -6.0; y < 1.0; y += 2.6) s.push_back(Line({{-4.6, y}, {4.6, y}}, mortar, 0.35));
  s.push_back(Line({{-6, -4.6}, {-6, 12.2}}, mortar, 0.5));
  s.push_back(Line({{6, -4.6}, {6, 12.2}}, mortar, 0.5));
  s.push_back(Fill(Join({{{2.8, 12.2}, {-2.8, 12.2}}, Arc({0, 6.0}, 2.8, 3.0, 180, 360, 12)}), door));
  s.push_back(Fill(Join({{{0.9, -3.0}, {-0.9, -3.0}}, Arc({0, -5.0}, 0.9, 1.2, 180, 360, 8)}), door));
  s.push_back(Fill(Rect(-10.8, 3.2, -9.4, 6.0), door));
  s.push_back(Fill(Rect(9.4, 3.2, 10.8, 6.0), door));
  return d;
}

TokenDesign Encampment() {  // a round tent on an orange disc
  const cv::Scalar orange = Rgb(226, 104, 30), canvas = Rgb(250, 236, 206), dark = Rgb(70, 34, 14);
  TokenDesign d = Framed("encampment", Ellipse({0, 0}, 11.0, 11.0, 0, 72), orange, canvas);
  Shapes& s = d.shapes;
  s.push_back(Fill(
      Join({{{-7.2, 5.0}}, Bezier({-7.2, 5.0}, {-3.2, -0.6}, {0, -6.4}), Bezier({0, -6.4}, {3.2, -0.6}, {7.2, 5.0})}),
      canvas));
  s.push_back(Fill({{-2.4, 5.0}, {2.4, 5.0}, {0, -1.0}}, dark));
  s.push_back(Line({{0, -6.4}, {0, -8.4}}, dark, 0.6));
  s.push_back(Fill({{0, -8.6}, {2.6, -7.8}, {0, -7.0}}, canvas));
  s.push_back(Line({{-8.6, 5.4}, {8.6, 5.4}}, dark, 0.6));
  s.push_back(Line({{-3.6, -0.2}, {-5.4, 2.4}}, dark, 0.35));
  s.push_back(Line({{3.6, -0.2}, {5.4, 2.4}}, dark, 0.35));
  return d;
}

TokenDesign Hole() {  // a dark hole with an earthen rim; an irregular round footprint
  const cv::Scalar earth = Rgb(124, 82, 44), dark_earth = Rgb(78, 50, 26), pit = Rgb(22, 18, 16);
  TokenDesign d = Framed("hole", Squircle(13.0, 12.6, 2.0, 23, 0.03), earth, dark_earth);
  Shapes& s = d.shapes;
  s.push_back(Fill(Squircle(9.4, 8.8, 2.0, 5, 0.05), dark_earth));
  s.push_back(Fill(Squircle(7.8, 7.2, 2.0, 9, 0.06), pit));
  for (const Pt& p : Poly{{-9.8, -6.4}, {8.2, -8.0}, {10.0, 5.6}, {-6.0, 9.6}, {2.0, 10.4}, {-10.8, 2.4}})
    s.push_back(Fill(Ellipse(p, 0.9, 0.6, p.x * 10), Rgb(176, 140, 96)));
  return d;
}

TokenDesign Hero() {  // a golden heater shield with a sword
  const cv::Scalar gold = Rgb(226, 180, 46), red = Rgb(128, 26, 22);
  const Poly outline = Join({{{-11.0, -11.0}, {0, -12.0}, {11.0, -11.0}},
                             Bezier({11.0, -11.0}, {11.4, 5.0}, {0, 12.5}),
                             Bezier({0, 12.5}, {-11.4, 5.0}, {-11.0, -11.0})});
  TokenDesign d = Framed("hero", outline, gold, red);
  Shapes& s = d.shapes;
  s.push_back(Fill({{0, -9.6}, {1.2, -7.8}, {1.2, 3.8}, {-1.2, 3.8}, {-1.2, -7.8}}, red));
  s.push_back(Fill(Rect(-4.6, 3.8, 4.6, 5.4), red));
  s.push_back(Fill(Rect(-0.8, 5.4, 0.8, 8.8), red));
  s.push_back(Disc({0, 9.6}, 1.2, red));
  s.push_back(Line({{0, -7.8}, {0, 2.8}}, gold, 0.35));
  return d;
}

TokenDesign Dragon() {  // a red dragon's head on a disc ringed with spines
  const cv::Scalar red = Rgb(196, 32, 28), black = Rgb(34, 12, 10), yellow = Rgb(252, 212, 40);
  Poly outline;
  for (int i = 0; i < 120; ++i) {  // 12 spines, each a sharp bump of about 1.5 mm on a 15.5 mm disc
    const double t = 2 * kPi * i / 120, phase = std::fmod(i / 10.0 + 0.5, 1.0);  // spine tips at 0, 30, ... deg
    const double r = 15.5 + 1.5 * std::pow(1 - std::abs(2 * phase - 1), 2.5);
    outline.emplace_back(r * std::cos(t), r * std::sin(t));
  }
  TokenDesign d = Framed("dragon", outline, red, black);
  d.shapes[1] = Ring({0, 0}, 14.0, black, 0.5);
  Shapes head;
  const Poly profile = {{-11.0, 1.0}, {-10.2, -2.4}, {-4.4, -4.6}, {-1.4, -6.2}, {4.6, -12.0}, {2.4, -5.2},
                        {6.8, -4.8},  {9.6, 1.6},    {10.4, 11.0}, {3.0, 11.0},  {1.4, 4.6},   {-3.6, 3.6},
                        {-8.0, 6.0},  {-10.6, 3.6},  {-7.0, 3.2},  {-9.8, 2.4}};
  head.push_back(Fill(profile, black));
  head.push_back(Fill({{-1.4, -6.2}, {-4.0, -10.4}, {-0.2, -6.0}}, black));  // the second horn
  head.push_back(Fill(Ellipse({-3.4, -1.6}, 1.5, 1.0, -15), yellow));
  head.push_back(Fill(Ellipse({-3.4, -1.6}, 0.3, 0.9), black));
  head.push_back(Disc({-9.2, -1.0}, 0.55, red));
  for (double x : {-9.0, -7.4, -5.8}) head.push_back(Fill({{x, 2.4}, {x + 0.9, 2.4}, {x + 0.45, 3.8}}, yellow));
  head.push_back(Fill({{-11.4, 4.6}, {-13.2, 6.6}, {-11.4, 6.0}, {-12.6, 8.6}, {-10.4, 6.4}}, yellow));  // a flame
  for (double y : {2.0, 4.6, 7.4}) head.push_back(Line({{3.8, y}, {6.4, y + 1.6}, {8.6, y + 0.2}}, red, 0.4));
  Append(d.shapes, Placed(head, 0, 1.0, {0.8, -0.4}));
  return d;
}

// ---------------------------------------------------------------------------------------------------------------
// The catalogue.

struct Catalogue {
  std::vector<std::string> kinds;
  std::vector<TokenDesign> designs;
  std::map<std::string, int, std::less<>> index;
};

const Catalogue& TheCatalogue() {
  static const Catalogue* catalogue = [] {
    auto* c = new Catalogue;
    const std::vector<RaceStyle>& styles = RaceStyles();
    for (size_t i = 0; i < styles.size(); ++i) c->designs.push_back(RaceDesign(styles[i], static_cast<int>(i), false));
    for (size_t i = 0; i < styles.size(); ++i) c->designs.push_back(RaceDesign(styles[i], static_cast<int>(i), true));
    c->designs.push_back(LostTribe());
    for (const auto& make : {Mountain, TrollLair, Fortress, Encampment, Hole, Hero, Dragon})
      c->designs.push_back(make());
    for (const TokenDesign& d : c->designs) {
      c->index[d.kind] = static_cast<int>(c->kinds.size());
      c->kinds.push_back(d.kind);
    }
    return c;
  }();
  return *catalogue;
}

// ---------------------------------------------------------------------------------------------------------------
// Rasterising.

// Smooth value noise in -1..1 with unit cells: the paper's grain, fixed to the token so that it turns with it.
// The lattice is a 256 x 256 table of random values (wrapping), each kind reading it at its own offset.
class GrainNoise {
 public:
  GrainNoise() {
    uint32_t h = 0x9E3779B9u;
    for (float& v : lattice_) {
      h ^= h << 13, h ^= h >> 17, h ^= h << 5;  // xorshift32
      v = static_cast<float>((h & 0xFFFF) / 32767.5 - 1);
    }
  }
  double At(double x, double y, uint32_t seed) const {
    const double fx = std::floor(x), fy = std::floor(y);
    const int ix = static_cast<int>(fx) + static_cast<int>(seed & 0xFF);
    const int iy = static_cast<int>(fy) + static_cast<int>(seed >> 8 & 0xFF);
    double u = x - fx, v = y - fy;
    u = u * u * (3 - 2 * u);
    v = v * v * (3 - 2 * v);
    auto at = [&](int dx, int dy) { return lattice_[((iy + dy) & 0xFF) << 8 | ((ix + dx) & 0xFF)]; };
    return (at(0, 0) * (1 - u) + at(1, 0) * u) * (1 - v) + (at(0, 1) * (1 - u) + at(1, 1) * u) * v;
  }

 private:
  std::array<float, 256 * 256> lattice_;
};

uint32_t KindSeed(std::string_view kind) {  // FNV-1a: the grain differs per kind but never between runs
  uint32_t h = 2166136261u;
  for (char c : kind) h = (h ^ static_cast<uint8_t>(c)) * 16777619u;
  return h;
}

double MaxRadius(const Poly& outline) {
  double r = 0;
  for (const Pt& p : outline) r = std::max(r, std::hypot(p.x, p.y));
  return r;
}

}  // namespace

const std::vector<std::string>& AllTokenKinds() { return TheCatalogue().kinds; }

bool IsTokenKind(std::string_view kind) { return TheCatalogue().index.count(kind) > 0; }

const TokenDesign& DesignOf(std::string_view kind) {
  const Catalogue& c = TheCatalogue();
  const auto it = c.index.find(kind);
  if (it == c.index.end()) throw std::invalid_argument("unknown token kind \"" + std::string(kind) + "\"");
  return c.designs[it->second];
}

// Paints the design at `ss` times the final resolution without anti-aliasing, then averages ss x ss blocks down
// (INTER_AREA): every edge, including where two shapes meet, gets the same clean coverage-based anti-aliasing,
// which cv::LINE_AA on overlapping shapes does not give. The supersampling factor falls as the scale grows so that
// a 300 dpi render stays affordable. OpenCV fills pixels on the boundary too, so every shape comes out about half a
// canvas pixel fatter per side: under 0.05 mm, under 1% of a token's area at 3 px/mm (tests measure it).
cv::Mat RenderToken(std::string_view kind, double px_per_mm, double rotation_deg) {
  const TokenDesign& d = DesignOf(kind);
  CV_Assert(px_per_mm > 0);
  const double r_max = MaxRadius(d.outline);
  const int half = static_cast<int>(std::ceil(r_max * px_per_mm + 1.5)), n = 2 * half + 1;
  const int ss = std::clamp(static_cast<int>(std::ceil(24 / px_per_mm)), 2, 4);
  const double scale = px_per_mm * ss, centre = (half + 0.5) * ss;
  const double a = rotation_deg * kPi / 180, ca = std::cos(a), sa = std::sin(a);
  constexpr int kShift = 4;  // sub-pixel vertex precision for OpenCV's drawing: 1/16 px
  // Counter-clockwise on screen (y down) for a positive angle. An OpenCV vertex (i, j) is the centre of canvas
  // pixel (i, j), i.e. continuous coordinate (i + 0.5, j + 0.5), hence the 0.5.
  auto to_canvas = [&](const Pt& p) {
    const double x = centre + (p.x * ca + p.y * sa) * scale - 0.5, y = centre + (-p.x * sa + p.y * ca) * scale - 0.5;
    return cv::Point(static_cast<int>(std::lround(x * (1 << kShift))),
                     static_cast<int>(std::lround(y * (1 << kShift))));
  };
  auto to_canvas_poly = [&](const Poly& poly) {
    std::vector<cv::Point> out;
    out.reserve(poly.size());
    for (const Pt& p : poly) out.push_back(to_canvas(p));
    return out;
  };

  // Outside the footprint the canvas holds the background colour, so the anti-aliased rim pixels (colour not
  // premultiplied) keep the token's colour rather than fading to black.
  const cv::Scalar bg = d.shapes.empty() ? cv::Scalar(128, 128, 128) : d.shapes.front().bgr;
  // Scratch canvases are kept per thread: a fresh half-megabyte allocation per call costs more in page faults
  // than all the drawing at 3 px/mm.
  thread_local cv::Mat canvas, mask;
  canvas.create(n * ss, n * ss, CV_8UC3);
  mask.create(n * ss, n * ss, CV_8UC1);
  canvas.setTo(bg);
  mask.setTo(cv::Scalar(0));
  const std::vector<std::vector<cv::Point>> footprint = {to_canvas_poly(d.outline)};
  cv::fillPoly(mask, footprint, cv::Scalar(255), cv::LINE_8, kShift);
  for (const TokenShape& s : d.shapes) {
    const int thickness = std::max(1, static_cast<int>(std::lround(s.line_mm * scale)));
    switch (s.type) {
      case TokenShape::Type::kCircle:
        cv::circle(canvas, to_canvas(s.points.at(0)),
                   static_cast<int>(std::lround(s.radius_mm * scale * (1 << kShift))), s.bgr,
                   s.line_mm > 0 ? thickness : cv::FILLED, cv::LINE_8, kShift);
        break;
      case TokenShape::Type::kPolygon:
        if (s.line_mm > 0) {
          cv::polylines(canvas, std::vector<std::vector<cv::Point>>{to_canvas_poly(s.points)}, true, s.bgr, thickness,
                        cv::LINE_8, kShift);
        } else {
          cv::fillPoly(canvas, std::vector<std::vector<cv::Point>>{to_canvas_poly(s.points)}, s.bgr, cv::LINE_8,
                       kShift);
        }
        break;
      case TokenShape::Type::kPolyline:
        cv::polylines(canvas, std::vector<std::vector<cv::Point>>{to_canvas_poly(s.points)}, false, s.bgr, thickness,
                      cv::LINE_8, kShift);
        break;
    }
  }
  cv::Mat small_bgr, small_alpha;
  cv::resize(canvas, small_bgr, cv::Size(n, n), 0, 0, cv::INTER_AREA);
  cv::resize(mask, small_alpha, cv::Size(n, n), 0, 0, cv::INTER_AREA);

  // Printed cardboard is not flat colour: a faint grain (two octaves of value noise, about 0.6 mm and 0.2 mm,
  // +-4 levels) and a slight falloff of brightness towards the rim (a few percent), both fixed to the token.
  static const GrainNoise noise;
  const uint32_t seed = KindSeed(kind);
  cv::Mat out(n, n, CV_8UC4);
  for (int y = 0; y < n; ++y) {
    const cv::Vec3b* src = small_bgr.ptr<cv::Vec3b>(y);
    const uint8_t* alpha = small_alpha.ptr<uint8_t>(y);
    cv::Vec4b* dst = out.ptr<cv::Vec4b>(y);
    for (int x = 0; x < n; ++x) {
      if (alpha[x] == 0) {
        dst[x] = cv::Vec4b(src[x][0], src[x][1], src[x][2], 0);
        continue;
      }
      const double ix = (x - half) / px_per_mm, iy = (y - half) / px_per_mm;  // image mm; back to the token's frame
      const double tx = ix * ca - iy * sa, ty = ix * sa + iy * ca;
      const double rr = (tx * tx + ty * ty) / (r_max * r_max);
      const double gain = 1.03 - 0.07 * rr;
      const double grain = 2.6 * noise.At(tx / 0.6, ty / 0.6, seed) + 1.6 * noise.At(tx / 0.2, ty / 0.2, seed >> 16);
      for (int c = 0; c < 3; ++c) dst[x][c] = cv::saturate_cast<uint8_t>(src[x][c] * gain + grain);
      dst[x][3] = alpha[x];
    }
  }
  return out;
}

cv::Rect2d Bounds(const std::vector<cv::Point2d>& p) {
  double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
  for (const Pt& q : p) {
    x0 = std::min(x0, q.x), y0 = std::min(y0, q.y), x1 = std::max(x1, q.x), y1 = std::max(y1, q.y);
  }
  return {x0, y0, x1 - x0, y1 - y0};
}

}  // namespace swref::datasets
