// `swref print tokens`: the stand-in token set as a printable PDF at true size (cairo). People can play with it,
// and it is the token set of the demo and of every synthetic dataset.
#pragma once

#include <string>

#include "engine/result.h"

namespace swref::datasets {

struct TokenSheetOptions {
  std::string paper = "a4";   // "a4" or "letter"
  bool full_box = true;       // as many of each kind as the box holds (engine/components.h); false: 2 of each
  bool duplex = true;         // each front page (active sides, pieces) is followed by its back page (decline
                              // sides, mirrored so that a long-edge duplex print puts each back behind its front)
};

// Writes the PDF; returns the number of pages, or an error naming the file.
engine::Result<int> WriteTokenSheetPdf(const std::string& path, const TokenSheetOptions& options);

}  // namespace swref::datasets
