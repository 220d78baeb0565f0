// The report's plot of every player's coins turn by turn (docs/report.md): one drawing, written as SVG text and
// as a PNG raster (OpenCV's anti-aliased drawing, rendered at twice the size and reduced for smooth edges).
// Rounds are shaded bands along the x axis; each line marks the player's own turns with a dot; the legend lists
// the players by final coins.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "app/core/report_data.h"

namespace swref::core {

struct ScoreChart {
  std::string title, subtitle;
  std::vector<std::string> players;        // seating order
  std::vector<std::vector<int>> coins;     // [player][t]: coins before the first turn (t = 0), then after turn t
  std::vector<int> turn_round;             // [t - 1]: the round of turn t
  std::vector<int> turn_player;            // [t - 1]: the player whose turn t was
};

ScoreChart ChartOf(const GameSummary& game);

// The chart as an SVG document (960 x 540 user units).
std::string ChartSvg(const ScoreChart& chart);
// The chart as a BGR image of 1440 x 810 pixels.
cv::Mat ChartImage(const ScoreChart& chart);

}  // namespace swref::core
