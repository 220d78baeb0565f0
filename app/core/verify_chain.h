// The structural steps of verify.h (1-3): the hash chain and head, the entries' kinds, fields and references,
// and record.actions against the action entries. Pure JSON: no rules involved.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/core/verify.h"

namespace swref::core {

// "record.journal[k]": how verify's messages name entry k.
std::string JournalAt(int k);

// A problem found: where, and the one line that says it.
struct ChainProblem {
  BadPlace bad;
  std::string problem;
  bool found() const { return bad.part != BadPlace::Part::kNone; }
};

// Step 1. `journal` is the document's journal (an array of at most the limit's entries).
ChainProblem CheckChain(const nlohmann::json& document);

// Step 2. Assumes step 1 passed. `*standing` receives the positions of the action entries not undone, in order.
ChainProblem CheckEntries(const nlohmann::json& journal, std::vector<int>* standing);

// Step 3. record.actions against the standing action entries.
ChainProblem CheckActions(const nlohmann::json& document, const std::vector<int>& standing);

}  // namespace swref::core
