// `swref report RECORD... --out DIR` (docs/report.md): for each record, an HTML page, the scores-by-turn chart
// as PNG and SVG, and CSV files of the turns, the flags and the ranking; for several records also the tournament
// table (HTML and CSV). Shared by the CLI and the GUI.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "app/core/report_data.h"
#include "engine/result.h"

namespace swref::core {

struct ReportOutput {
  std::vector<GameSummary> games;                // one per record, in the order given
  std::vector<std::filesystem::path> files;      // every file written
};

// Why WriteReports failed.
enum class ReportFailure { kNone, kUnreadable, kTampered, kWrite };

// Files in `out_dir` (created when missing; existing report files are replaced), named after each record's file
// name without extension: NAME.html, NAME-scores.png, NAME-scores.svg, NAME-turns.csv, NAME-flags.csv,
// NAME-ranking.csv; two records with the same name get "-2", "-3"... With several records: tournament.html and
// tournament.csv. Errors name the record (not readable, or fails verification: nothing is written) or the file
// that could not be written; `*failure` (when given) says which.
engine::Result<ReportOutput> WriteReports(const std::vector<std::filesystem::path>& records, const std::filesystem::path& out_dir,
                                          ReportFailure* failure = nullptr);

}  // namespace swref::core
