#include "app/core/score_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include <opencv2/imgproc.hpp>

namespace swref::core {
namespace {

constexpr double kWidth = 960, kHeight = 540;
constexpr double kLeft = 70, kRight = kWidth - 200, kTop = 112, kBottom = kHeight - 60;
constexpr double kRaster = 3;     // the PNG is drawn at 3x the SVG's units, then halved: 1440 x 810

struct Rgb {
  int r, g, b;
  std::string Hex() const {
    char s[8];
    std::snprintf(s, sizeof s, "#%02x%02x%02x", r, g, b);
    return s;
  }
  cv::Scalar Bgr() const { return cv::Scalar(b, g, r); }
};

// Okabe & Ito's colour-blind-safe palette.
constexpr Rgb kPalette[] = {{0, 114, 178}, {213, 94, 0}, {0, 158, 115}, {204, 121, 167}, {230, 159, 0}};
constexpr Rgb kInk{34, 34, 34}, kMuted{110, 116, 124}, kGrid{226, 229, 233}, kBand{245, 247, 249}, kWhite{255, 255, 255};

enum class Anchor { kStart, kMiddle, kEnd };

class Canvas {
 public:
  virtual ~Canvas() = default;
  virtual void Rect(double x, double y, double w, double h, Rgb fill) = 0;
  virtual void Line(double x1, double y1, double x2, double y2, Rgb color, double width) = 0;
  virtual void Polyline(const std::vector<cv::Point2d>& points, Rgb color, double width) = 0;
  virtual void Dot(double x, double y, double radius, Rgb fill) = 0;
  // `y` is the baseline; `size` the font size in units.
  virtual void Text(double x, double y, const std::string& text, double size, Rgb color, Anchor anchor, bool bold) = 0;
};

std::string XmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string Num(double v) {
  char s[32];
  std::snprintf(s, sizeof s, "%.1f", v);
  return s;
}

class SvgCanvas : public Canvas {
 public:
  void Rect(double x, double y, double w, double h, Rgb fill) override {
    body_ += "<rect x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" width=\"" + Num(w) + "\" height=\"" + Num(h) + "\" fill=\"" + fill.Hex() + "\"/>\n";
  }
  void Line(double x1, double y1, double x2, double y2, Rgb color, double width) override {
    body_ += "<line x1=\"" + Num(x1) + "\" y1=\"" + Num(y1) + "\" x2=\"" + Num(x2) + "\" y2=\"" + Num(y2) + "\" stroke=\"" + color.Hex() +
             "\" stroke-width=\"" + Num(width) + "\" stroke-linecap=\"round\"/>\n";
  }
  void Polyline(const std::vector<cv::Point2d>& points, Rgb color, double width) override {
    body_ += "<polyline fill=\"none\" stroke=\"" + color.Hex() + "\" stroke-width=\"" + Num(width) + "\" stroke-linejoin=\"round\" points=\"";
    for (const auto& p : points) body_ += Num(p.x) + "," + Num(p.y) + " ";
    body_ += "\"/>\n";
  }
  void Dot(double x, double y, double radius, Rgb fill) override {
    body_ += "<circle cx=\"" + Num(x) + "\" cy=\"" + Num(y) + "\" r=\"" + Num(radius) + "\" fill=\"" + fill.Hex() + "\" stroke=\"#ffffff\" stroke-width=\"1.2\"/>\n";
  }
  void Text(double x, double y, const std::string& text, double size, Rgb color, Anchor anchor, bool bold) override {
    const char* a = anchor == Anchor::kStart ? "start" : anchor == Anchor::kMiddle ? "middle" : "end";
    body_ += "<text x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" font-size=\"" + Num(size) + "\" fill=\"" + color.Hex() + "\" text-anchor=\"" + a + "\"" +
             (bold ? " font-weight=\"600\"" : "") + ">" + XmlEscape(text) + "</text>\n";
  }
  std::string Document() const {
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 960 540\" width=\"960\" height=\"540\" "
           "font-family=\"Helvetica, Arial, sans-serif\">\n" + body_ + "</svg>\n";
  }

 private:
  std::string body_;
};

class MatCanvas : public Canvas {
 public:
  MatCanvas() : image_(static_cast<int>(kHeight * kRaster), static_cast<int>(kWidth * kRaster), CV_8UC3, kWhite.Bgr()) {}
  void Rect(double x, double y, double w, double h, Rgb fill) override {
    cv::rectangle(image_, P(x, y), P(x + w, y + h), fill.Bgr(), cv::FILLED);
  }
  void Line(double x1, double y1, double x2, double y2, Rgb color, double width) override {
    cv::line(image_, P(x1, y1), P(x2, y2), color.Bgr(), Thick(width), cv::LINE_AA);
  }
  void Polyline(const std::vector<cv::Point2d>& points, Rgb color, double width) override {
    std::vector<cv::Point> pts;
    for (const auto& p : points) pts.push_back(P(p.x, p.y));
    cv::polylines(image_, pts, false, color.Bgr(), Thick(width), cv::LINE_AA);
  }
  void Dot(double x, double y, double radius, Rgb fill) override {
    cv::circle(image_, P(x, y), static_cast<int>(std::lround((radius + 1.2) * kRaster)), kWhite.Bgr(), cv::FILLED, cv::LINE_AA);
    cv::circle(image_, P(x, y), static_cast<int>(std::lround(radius * kRaster)), fill.Bgr(), cv::FILLED, cv::LINE_AA);
  }
  void Text(double x, double y, const std::string& text, double size, Rgb color, Anchor anchor, bool bold) override {
    std::string ascii;  // the Hershey fonts hold ASCII only
    for (unsigned char c : text) ascii += c < 128 ? static_cast<char>(c) : '?';
    const int font = bold ? cv::FONT_HERSHEY_DUPLEX : cv::FONT_HERSHEY_SIMPLEX;
    const double scale = 0.70 * size * kRaster / 22.0;  // a cap height of 0.7 em; Hershey capitals are ~22 px at scale 1
    const int thickness = std::max(1, static_cast<int>(std::lround(scale * (bold ? 1.9 : 1.5))));
    int baseline = 0;
    const cv::Size extent = cv::getTextSize(ascii, font, scale, thickness, &baseline);
    double shift = anchor == Anchor::kStart ? 0 : anchor == Anchor::kMiddle ? extent.width / 2.0 : extent.width;
    cv::putText(image_, ascii, cv::Point(static_cast<int>(x * kRaster - shift), static_cast<int>(y * kRaster)), font, scale, color.Bgr(), thickness,
                cv::LINE_AA);
  }
  cv::Mat Result() const {
    cv::Mat out;
    cv::resize(image_, out, cv::Size(), 0.5, 0.5, cv::INTER_AREA);
    return out;
  }

 private:
  static cv::Point P(double x, double y) { return cv::Point(static_cast<int>(std::lround(x * kRaster)), static_cast<int>(std::lround(y * kRaster))); }
  static int Thick(double width) { return std::max(1, static_cast<int>(std::lround(width * kRaster))); }
  cv::Mat image_;
};

// A round step for about five grid lines: 1, 2 or 5 times a power of ten.
int NiceStep(int max_value) {
  const double raw = std::max(1.0, max_value / 5.0);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw) return static_cast<int>(m * power);
  return static_cast<int>(10 * power);
}

void DrawAxes(Canvas& c, const ScoreChart& chart, int turns, int y_max, int step) {
  auto x_of = [&](double t) { return kLeft + (kRight - kLeft) * t / std::max(turns, 1); };
  for (size_t t = 0; t < chart.turn_round.size();) {  // one band per round, every other one shaded
    size_t end = t;
    while (end < chart.turn_round.size() && chart.turn_round[end] == chart.turn_round[t]) ++end;
    const double x0 = x_of(static_cast<double>(t)), x1 = x_of(static_cast<double>(end));
    if (chart.turn_round[t] % 2 == 1) c.Rect(x0, kTop, x1 - x0, kBottom - kTop, kBand);
    c.Text((x0 + x1) / 2, kBottom + 20, std::to_string(chart.turn_round[t]), 12, kMuted, Anchor::kMiddle, false);
    t = end;
  }
  for (int v = 0; v <= y_max; v += step) {
    const double y = kBottom - (kBottom - kTop) * v / y_max;
    c.Line(kLeft, y, kRight, y, v == 0 ? kMuted : kGrid, 1);
    c.Text(kLeft - 10, y + 4, std::to_string(v), 12, kMuted, Anchor::kEnd, false);
  }
  c.Text((kLeft + kRight) / 2, kBottom + 44, "round", 12, kMuted, Anchor::kMiddle, false);
  c.Text(kLeft - 10, kTop - 16, "coins", 12, kMuted, Anchor::kEnd, false);
}

void DrawChart(Canvas& c, const ScoreChart& chart) {
  c.Rect(0, 0, kWidth, kHeight, kWhite);
  c.Text(28, 40, chart.title, 22, kInk, Anchor::kStart, true);
  c.Text(28, 66, chart.subtitle, 14, kMuted, Anchor::kStart, false);
  const int turns = static_cast<int>(chart.turn_round.size());
  int top_value = 1;
  for (const auto& series : chart.coins)
    for (int v : series) top_value = std::max(top_value, v);
  const int step = NiceStep(top_value);
  const int y_max = (top_value + step - 1) / step * step;
  DrawAxes(c, chart, turns, y_max, step);
  auto point = [&](int t, int v) {
    return cv::Point2d(kLeft + (kRight - kLeft) * t / std::max(turns, 1), kBottom - (kBottom - kTop) * v / y_max);
  };
  std::vector<size_t> order(chart.players.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return chart.coins[a].back() > chart.coins[b].back(); });
  for (auto it = order.rbegin(); it != order.rend(); ++it) {  // the leader drawn last, on top
    const size_t p = *it;
    const Rgb color = kPalette[p % 5];
    std::vector<cv::Point2d> points;
    for (int t = 0; t <= turns; ++t) points.push_back(point(t, chart.coins[p][t]));
    c.Polyline(points, color, 2.5);
    for (int t = 1; t <= turns; ++t)
      if (chart.turn_player[t - 1] == static_cast<int>(p)) c.Dot(points[t].x, points[t].y, 3.2, color);
  }
  double y = kTop + 10;
  for (size_t p : order) {
    c.Line(kRight + 30, y - 5, kRight + 52, y - 5, kPalette[p % 5], 3.5);
    c.Text(kRight + 62, y, chart.players[p], 14, kInk, Anchor::kStart, false);
    c.Text(kWidth - 28, y, std::to_string(chart.coins[p].back()), 14, kInk, Anchor::kEnd, true);
    y += 28;
  }
}

}  // namespace

ScoreChart ChartOf(const GameSummary& game) {
  ScoreChart chart;
  chart.title = "Coins by turn: " + game.name;
  chart.subtitle = "map " + game.map + (game.variant == "solo" ? ", SoloPlay" : "") + ", " + std::to_string(game.turns.size()) + " turns, " +
                   (game.finished ? "finished after round " + std::to_string(game.round) : "in round " + std::to_string(game.round)) + ", " +
                   (game.winners.empty() ? std::string(game.finished ? "no winner" : "not finished")
                                         : (game.winners.size() > 1 ? "shared win" : "winner " + game.winners[0]));
  chart.players = game.players;
  chart.coins.resize(game.players.size());
  for (size_t p = 0; p < game.players.size(); ++p) chart.coins[p].push_back(game.start_coins[p]);
  for (const TurnRow& row : game.turns) {
    chart.turn_round.push_back(row.round);
    const auto at = std::find(game.players.begin(), game.players.end(), row.player);
    chart.turn_player.push_back(static_cast<int>(at - game.players.begin()));
    for (size_t p = 0; p < game.players.size(); ++p) chart.coins[p].push_back(row.holdings[p]);
  }
  return chart;
}

std::string ChartSvg(const ScoreChart& chart) {
  SvgCanvas canvas;
  DrawChart(canvas, chart);
  return canvas.Document();
}

cv::Mat ChartImage(const ScoreChart& chart) {
  MatCanvas canvas;
  DrawChart(canvas, chart);
  return canvas.Result();
}

}  // namespace swref::core
