// The report's HTML pages (docs/report.md): one self-contained page per game (style inline; the chart and the
// CSV files are linked by their names in the same folder) and the tournament table over several games.
#pragma once

#include <string>
#include <vector>

#include "app/core/report_data.h"
#include "app/core/report_tables.h"

namespace swref::core {

// The names of a game's other files, as linked from its page ("" = no link).
struct GameFiles {
  std::string page, svg, png, turns_csv, flags_csv, ranking_csv;
  std::string tournament;   // the tournament page, when there is one
};

std::string GameHtml(const GameSummary& game, const GameFiles& files);
std::string TournamentHtml(const std::vector<GameSummary>& games, const std::vector<GameFiles>& files, const std::vector<Standing>& standings,
                           const std::string& csv);

// Text made safe for HTML element content and attribute values.
std::string HtmlEscape(const std::string& text);

}  // namespace swref::core
