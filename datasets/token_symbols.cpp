// The races' symbols on the stand-in tokens (token_art_internal.h).
#include <algorithm>
#include <cmath>

#include "datasets/token_art_internal.h"

namespace swref::datasets::token_art_internal {

// ---------------------------------------------------------------------------------------------------------------
// Race symbols, about 20 mm across, drawn in `ink` with cut-outs in `bg` (the token's background).


Shapes Bow(const Ink& k) {  // amazons: a drawn bow with its arrow
  const Poly limb = Arc({6.5, 0}, 11.5, 11.5, 137, 223, 24);
  Shapes s;
  s.push_back(Fill(Band(limb, [](double t) { return 0.9 + 1.1 * std::sin(kPi * t); }), k.ink));
  s.push_back(Line({limb.front(), {4.2, 0}, limb.back()}, k.ink, 0.45));
  s.push_back(Line({{6.0, 0}, {-7.5, 0}}, k.ink, 0.8));
  s.push_back(Fill({{-10.5, 0}, {-7.0, -2.1}, {-7.7, 0}, {-7.0, 2.1}}, k.ink));
  s.push_back(Fill({{4.0, 0}, {6.3, -2.0}, {8.0, -2.0}, {5.9, 0}, {8.0, 2.0}, {6.3, 2.0}}, k.ink));
  return Placed(s, 35, 1.0, {0.3, 0});
}

Shapes Axe(const Ink& k) {  // dwarves: a double-bitted axe
  Shapes s;
  s.push_back(Fill(Rect(-0.8, -8.5, 0.8, 10), k.ink));
  const Poly blade =
      Join({{{0.5, -6.3}, {3.2, -8.3}}, Arc({1.6, -4.6}, 6.0, 6.0, -52, 52, 14), {{3.2, -0.9}, {0.5, -2.9}}});
  s.push_back(Fill(blade, k.ink));
  s.push_back(Fill(MirrorX(blade), k.ink));
  s.push_back(Fill(Rect(-1.5, -7.2, 1.5, -2.0), k.ink));
  s.push_back(Disc({0, -4.6}, 0.8, k.bg));
  s.push_back(Line({{-0.8, 6.5}, {0.8, 7.3}}, k.bg, 0.35));
  s.push_back(Line({{-0.8, 7.9}, {0.8, 8.7}}, k.bg, 0.35));
  return Placed(s, 28, 1.0, {0, 0.4});
}

Shapes Leaf(const Ink& k) {  // elves: a leaf with its veins and stem
  Poly upper, lower;
  for (int i = 0; i <= 24; ++i) {
    const double t = i / 24.0, x = -8.5 + 17.5 * t, w = 4.8 * std::pow(std::sin(kPi * t), 0.85) * (1.05 - 0.2 * t);
    upper.emplace_back(x, -w);
    lower.emplace_back(x, w);
  }
  Shapes s;
  s.push_back(Fill(Join({upper, Poly(lower.rbegin(), lower.rend())}), k.ink));
  s.push_back(Line({{-11.2, 1.2}, {-8.5, 0}}, k.ink, 0.9));
  s.push_back(Line({{-8.5, 0}, {7.0, 0}}, k.bg, 0.6));
  for (double x : {-5.0, -1.5, 2.0, 5.0}) {
    const double dy = 3.0 * (1.0 - (x + 5.0) / 18.0);
    s.push_back(Line({{x, 0}, {x + 2.4, -dy}}, k.bg, 0.45));
    s.push_back(Line({{x, 0}, {x + 2.4, dy}}, k.bg, 0.45));
  }
  return Placed(s, -40, 1.0, {0.4, 0.3});
}

Shapes Ghost(const Ink& k) {  // ghouls: a wailing ghost
  Poly body = Arc({0, -2.5}, 6.3, 6.3, 180, 360, 20);
  for (int i = 0; i <= 24; ++i) {
    const double s = i / 24.0;
    body.emplace_back(6.3 - 12.6 * s, 7.6 + 1.2 * std::cos(4 * kPi * s) + 0.6 * s);
  }
  Shapes s;
  s.push_back(Fill(body, k.ink));
  s.push_back(Fill({{-6.2, 0.5}, {-9.0, 3.4}, {-8.4, 4.3}, {-6.0, 3.2}}, k.ink));  // arms
  s.push_back(Fill({{6.2, 0.5}, {9.0, 3.4}, {8.4, 4.3}, {6.0, 3.2}}, k.ink));
  s.push_back(Fill(Ellipse({-2.4, -2.2}, 1.3, 2.0, 12), k.bg));
  s.push_back(Fill(Ellipse({2.4, -2.2}, 1.3, 2.0, -12), k.bg));
  s.push_back(Fill(Ellipse({0, 3.0}, 1.6, 2.3), k.bg));
  return Placed(s, 8, 1.0, {0, -0.6});
}

Shapes Foot(const Ink& k) {  // giants: a huge footprint
  Poly sole = Ellipse({0, 0}, 4.5, 7.2, 0, 44);
  for (Pt& p : sole) p.x *= 1.0 - 0.22 * std::max(0.0, p.y / 7.2);  // a narrower heel
  for (Pt& p : sole) p.y += 2.6;
  Shapes s;
  s.push_back(Fill(sole, k.ink));
  s.push_back(Disc({-2.3, -7.0}, 2.0, k.ink));
  s.push_back(Disc({1.0, -7.6}, 1.45, k.ink));
  s.push_back(Disc({3.4, -6.8}, 1.25, k.ink));
  s.push_back(Disc({5.2, -5.3}, 1.05, k.ink));
  s.push_back(Disc({6.2, -3.4}, 0.9, k.ink));
  return Placed(s, 14, 1.0, {-0.6, 0.9});
}

Shapes Flower(const Ink& k) {  // halflings: a garden flower
  Shapes s;
  for (int i = 0; i < 6; ++i) {
    const double a = i * 60 - 90, r = 4.9;
    s.push_back(Fill(Ellipse({r * std::cos(a * kPi / 180), r * std::sin(a * kPi / 180)}, 3.6, 2.5, a), k.ink));
  }
  s.push_back(Disc({0, 0}, 2.7, k.bg));
  s.push_back(Disc({0, 0}, 1.5, k.ink));
  return s;
}

Shapes Crown(const Ink& k) {  // humans: a crown
  Shapes s;
  s.push_back(Fill({{-7.5, 4.2}, {-8.3, -4.6}, {-4.2, -0.6}, {0, -6.6}, {4.2, -0.6}, {8.3, -4.6}, {7.5, 4.2}}, k.ink));
  s.push_back(Fill(Rect(-7.5, 5.1, 7.5, 7.6), k.ink));
  s.push_back(Disc({-8.3, -5.6}, 1.35, k.ink));
  s.push_back(Disc({0, -7.7}, 1.45, k.ink));
  s.push_back(Disc({8.3, -5.6}, 1.35, k.ink));
  s.push_back(Fill(Star({0, 1.6}, 4, 1.9, 0.8), k.bg));
  s.push_back(Disc({-4.4, 2.2}, 0.95, k.bg));
  s.push_back(Disc({4.4, 2.2}, 0.95, k.bg));
  return Placed(s, 0, 1.0, {0, -0.2});
}

Shapes OrcHead(const Ink& k) {  // orcs: a scowling head with pointed ears and tusks over the lip
  const Poly jaw_and_ears = {{-6.2, -3.6}, {-10.4, -6.2}, {-6.7, 0.4}, {-7.3, 3.6},  {-5.6, 8.4},
                             {5.6, 8.4},   {7.3, 3.6},    {6.7, 0.4},  {10.4, -6.2}, {6.2, -3.6}};
  const Poly head = Join({jaw_and_ears, Arc({0, -2.6}, 6.4, 7.0, -9, -171, 20)});
  const Poly eye = {{-4.8, -3.6}, {-1.0, -1.7}, {-1.5, -0.3}, {-4.5, -1.5}};
  const Poly tusk = {{-3.4, 6.2}, {-1.6, 6.2}, {-2.9, 1.6}};
  Shapes s;
  s.push_back(Fill(head, k.ink));
  s.push_back(Fill(eye, k.bg));
  s.push_back(Fill(MirrorX(eye), k.bg));
  s.push_back(Disc({-0.8, 1.3}, 0.45, k.bg));
  s.push_back(Disc({0.8, 1.3}, 0.45, k.bg));
  s.push_back(Fill({{-4.4, 3.4}, {4.4, 3.4}, {3.7, 6.4}, {-3.7, 6.4}}, k.bg));
  for (const Poly& t : {tusk, MirrorX(tusk)}) {
    s.push_back(Fill(t, k.ink));
    s.push_back(Outline(t, k.bg, 0.35));
  }
  return Placed(s, 0, 1.0, {0, 0.2});
}

Shapes RatHead(const Ink& k) {  // ratmen: a rat's head in profile, with its tail
  Shapes s;
  const Poly head = Join({{{-9.6, 1.0}, {-7.0, -0.9}, {-4.0, -2.8}, {-1.0, -4.1}},
                          Arc({2.3, 0.2}, 4.7, 4.6, -125, 118, 24),
                          {{-1.0, 4.0}, {-4.6, 3.2}, {-8.2, 2.3}}});
  s.push_back(Line(Join({Bezier({6.0, 2.0}, {10.6, 5.6}, {5.4, 8.6}), Bezier({5.4, 8.6}, {1.6, 10.6}, {-1.8, 8.0})}),
                   k.ink, 0.9));
  s.push_back(Fill(head, k.ink));
  s.push_back(Disc({1.1, -5.0}, 2.9, k.ink));
  s.push_back(Disc({1.3, -4.8}, 1.6, k.bg));
  s.push_back(Disc({-3.2, -0.9}, 0.95, k.bg));
  s.push_back(Disc({-9.4, 1.1}, 0.7, k.bg));
  s.push_back(Line({{-7.2, 1.6}, {-10.6, -0.8}}, k.ink, 0.3));
  s.push_back(Line({{-7.2, 1.8}, {-10.9, 1.4}}, k.ink, 0.3));
  s.push_back(Line({{-7.2, 2.0}, {-10.4, 3.5}}, k.ink, 0.3));
  return Placed(s, 0, 1.0, {0.4, -1.6});
}

Shapes Skull(const Ink& k) {  // skeletons: a skull
  Shapes s;
  s.push_back(Disc({0, -2.2}, 6.8, k.ink));
  s.push_back(Fill({{-4.4, 1.5}, {4.4, 1.5}, {3.9, 8.0}, {-3.9, 8.0}}, k.ink));
  s.push_back(Fill(Ellipse({-2.7, -1.3}, 1.95, 2.2), k.bg));
  s.push_back(Fill(Ellipse({2.7, -1.3}, 1.95, 2.2), k.bg));
  s.push_back(Fill({{0, 1.3}, {-1.2, 3.5}, {1.2, 3.5}}, k.bg));
  for (double x = -2.4; x <= 2.41; x += 1.2) s.push_back(Line({{x, 5.0}, {x, 8.0}}, k.bg, 0.4));
  s.push_back(Line({{-3.6, 6.2}, {3.6, 6.2}}, k.bg, 0.4));
  return Placed(s, 0, 1.0, {0, 0.1});
}

Shapes Pentagram(const Ink& k) {  // sorcerers: a pentagram in a circle
  Poly star;
  for (int i = 0; i < 5; ++i) {
    const double a = (-90 + 144.0 * i) * kPi / 180;
    star.emplace_back(8.3 * std::cos(a), 8.3 * std::sin(a));
  }
  Shapes s;
  s.push_back(Ring({0, 0}, 8.6, k.ink, 1.0));
  s.push_back(Outline(star, k.ink, 1.1));
  s.push_back(Disc({0, 0}, 1.1, k.ink));
  return s;
}

Shapes Trident(const Ink& k) {  // tritons: a trident over a wave
  Shapes s;
  s.push_back(Line({{0, -1}, {0, 9.6}}, k.ink, 1.4));
  s.push_back(Line(Join({{{-5.0, -7.2}}, Arc({0, -3.4}, 5.0, 3.0, 180, 0, 16), {{5.0, -7.2}}}), k.ink, 1.3));
  s.push_back(Line({{0, -0.6}, {0, -8.2}}, k.ink, 1.3));
  for (double x : {-5.0, 0.0, 5.0}) {
    const double top = x == 0 ? -11.2 : -10.0;
    s.push_back(Fill({{x, top}, {x + 1.8, top + 3.2}, {x, top + 2.4}, {x - 1.8, top + 3.2}}, k.ink));
  }
  Poly wave;
  for (int i = 0; i <= 30; ++i) wave.emplace_back(-8.0 + 16.0 * i / 30, 6.0 + 1.0 * std::sin(i / 30.0 * 4 * kPi));
  s.push_back(Line(wave, k.bg, 2.0));
  s.push_back(Line(wave, k.ink, 0.9));
  return Placed(s, 0, 1.0, {0, 0.6});
}

Shapes Club(const Ink& k) {  // trolls: a spiked club
  Shapes s;
  const Poly club =
      Join({{{0.9, 10.0}, {-0.9, 10.0}, {-3.5, -3.5}}, Arc({0, -4.0}, 3.5, 3.5, 180, 360, 16), {{3.5, -3.5}}});
  for (double deg : {165.0, 200.0, 235.0, 270.0, 305.0, 340.0, 15.0}) {  // spikes standing out of the head
    const double a = deg * kPi / 180;
    const Pt dir(std::cos(a), std::sin(a)), n(-dir.y, dir.x), base = Pt(0, -4.0) + dir * 3.0;
    s.push_back(Fill({base - n * 0.9, base + dir * 2.6, base + n * 0.9}, k.ink));
  }
  s.push_back(Fill(club, k.ink));
  for (const Pt& knot : Poly{{-1.4, -5.0}, {1.3, -2.6}, {-0.8, -0.6}}) s.push_back(Disc(knot, 0.6, k.bg));
  for (double y : {6.6, 8.0}) s.push_back(Line({{-0.9, y}, {0.9, y + 0.7}}, k.bg, 0.35));
  return Placed(s, 32, 0.95, {0.4, 0.6});
}

Shapes Hat(const Ink& k) {  // wizards: a pointed hat with stars
  Shapes s;
  s.push_back(Fill({{-5.4, 4.6}, {5.4, 4.6}, {2.5, -2.6}, {2.4, -5.6}, {6.2, -9.4}, {0.6, -7.4}, {-1.8, -3.4}}, k.ink));
  s.push_back(Fill(Ellipse({0, 5.3}, 9.4, 2.3), k.ink));
  s.push_back(Fill({{-4.6, 2.0}, {4.6, 2.0}, {5.0, 3.5}, {-5.0, 3.5}}, k.bg));
  s.push_back(Fill(Star({-0.4, -1.4}, 5, 1.9, 0.8), k.bg));
  s.push_back(Fill(Star({2.4, -5.4}, 5, 1.0, 0.42), k.bg));
  return Placed(s, 0, 1.0, {0, 0.4});
}

}  // namespace swref::datasets::token_art_internal
