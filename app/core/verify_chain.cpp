#include "app/core/verify_chain.h"

#include <set>
#include <unordered_map>

namespace swref::core {
namespace {

using nlohmann::json;
using Part = BadPlace::Part;

ChainProblem Problem(Part part, int index, std::string text) { return {{part, index}, std::move(text)}; }

// Entry k's prev is not the hash of entry k-1 (or of the header for k = 0): say what most likely happened.
ChainProblem DiagnosePrev(const json& journal, int k, const std::string& header_hash) {
  std::unordered_map<std::string, int> position;
  for (int i = 0; i < static_cast<int>(journal.size()); ++i)
    if (journal[i].is_object() && journal[i].contains("hash") && journal[i]["hash"].is_string()) position.emplace(journal[i]["hash"].get<std::string>(), i);
  const json& prev = journal[k].contains("prev") ? journal[k]["prev"] : json(nullptr);
  const std::string p = prev.is_string() ? prev.get<std::string>() : "";
  const auto found = position.find(p);
  if (k == 0) {
    if (found != position.end())
      return Problem(Part::kJournal, 0, JournalAt(0) + ": prev names entry " + std::to_string(found->second) + ", not the record's header (reordered)");
    if (journal[0].value("seq", json(nullptr)) == 0 && journal[0].value("kind", json(nullptr)) == "start")
      return Problem(Part::kHeader, -1, "record header: its hash does not match journal[0].prev (a header field was edited)");
    return Problem(Part::kJournal, 0, JournalAt(0) + ": prev does not match the record's header (the first entry deleted, or entries inserted or reordered)");
  }
  const std::string before = k == 1 ? header_hash : journal[k - 2].value("hash", std::string());
  if (p == before)
    return Problem(Part::kJournal, k - 1, JournalAt(k - 1) + ": not in the chain: entry " + std::to_string(k) + "'s prev names " +
                                               (k == 1 ? std::string("the header") : "entry " + std::to_string(k - 2)) + " (inserted)");
  if (found != position.end())
    return Problem(Part::kJournal, k, JournalAt(k) + ": prev does not match entry " + std::to_string(k - 1) + "; it names entry " +
                                          std::to_string(found->second) + " (reordered)");
  return Problem(Part::kJournal, k, JournalAt(k) + ": prev does not match entry " + std::to_string(k - 1) + " (deleted, inserted or reordered)");
}

ChainProblem CheckHead(const json& document, const json& journal) {
  const int n = static_cast<int>(journal.size());
  if (!document.contains("head") || !document["head"].is_object()) return Problem(Part::kHead, -1, "record.head: missing (edited)");
  const json& head = document["head"];
  if (!head.contains("entries") || !head["entries"].is_number_integer() || !head.contains("hash") || !IsSha256Hex(head["hash"]))
    return Problem(Part::kHead, -1, "record.head: expected {\"entries\": count, \"hash\": the last entry's hash} (edited)");
  const int64_t named = head["entries"].get<int64_t>();
  if (named > n)
    return Problem(Part::kJournal, n, JournalAt(n) + ": missing: the head names " + std::to_string(named) + " entries, the journal has " + std::to_string(n) +
                                          " (deleted at the end)");
  if (named < n)
    return Problem(Part::kJournal, static_cast<int>(named), JournalAt(static_cast<int>(named)) + ": after the head, which names " + std::to_string(named) +
                                                                 " entries (inserted at the end)");
  if (head["hash"] != journal[n - 1]["hash"]) return Problem(Part::kHead, -1, "record.head.hash: does not match journal[" + std::to_string(n - 1) + "] (edited)");
  return {};
}

// Checks that depend on an entry's kind; updates the open flags and questions and the standing actions.
struct EntryState {
  std::vector<int> standing;
  std::set<int> open_flags, open_questions;
};

ChainProblem CheckReferences(const json& journal, int k, EntryKind kind, EntryState* s) {
  const json& data = journal[k]["data"];
  const std::string place = JournalAt(k) + ".data";
  auto bad = [&](const std::string& text) { return Problem(Part::kJournal, k, text); };
  switch (kind) {
    case EntryKind::kAction:
      if (data["index"] != s->standing.size())
        return bad(place + ".index: expected " + std::to_string(s->standing.size()) + " (the actions standing before it), got " + data["index"].dump());
      s->standing.push_back(k);
      break;
    case EntryKind::kUndo:
      if (s->standing.empty()) return bad(place + ".entry: no action is standing to undo");
      if (data["entry"] != s->standing.back() || data["index"] != s->standing.size() - 1)
        return bad(place + ": does not name the last standing action (journal[" + std::to_string(s->standing.back()) + "], index " +
                   std::to_string(s->standing.size() - 1) + ")");
      s->standing.pop_back();
      break;
    case EntryKind::kFlag: s->open_flags.insert(k); break;
    case EntryKind::kResolution: {
      const int64_t flag = data["flag"].get<int64_t>();
      if (!s->open_flags.erase(static_cast<int>(flag))) return bad(place + ".flag: " + std::to_string(flag) + " is no unresolved flag before it");
      if (data["outcome"] != kHouseRuling) break;
      json ruled = journal[static_cast<size_t>(flag)]["data"]["action"];
      ruled["ruling"] = "house";
      const bool follows = k + 1 < static_cast<int>(journal.size()) && journal[k + 1]["kind"] == "action" && journal[k + 1]["data"].is_object() &&
                           journal[k + 1]["data"].value("action", json(nullptr)) == ruled;
      if (!follows) return bad(JournalAt(k) + ": a house ruling not followed by its conquest, with \"ruling\": \"house\"");
      break;
    }
    case EntryKind::kQuestion: s->open_questions.insert(k); break;
    case EntryKind::kAnswer: {
      const int64_t q = data["question"].get<int64_t>();
      if (!s->open_questions.erase(static_cast<int>(q))) return bad(place + ".question: " + std::to_string(q) + " is no open question before it");
      break;
    }
    case EntryKind::kCorrection:
      if (data["entry"].get<int64_t>() >= k) return bad(place + ".entry: must name an earlier entry");
      break;
    default: break;
  }
  return {};
}

}  // namespace

ChainProblem CheckChain(const json& document) {
  const json& journal = document["journal"];
  if (!journal.is_array()) return Problem(Part::kJournal, -1, "record.journal: expected an array of entries (edited)");
  if (journal.empty()) return Problem(Part::kJournal, 0, "record.journal: empty (every entry deleted)");
  std::string header_hash;
  try {
    header_hash = CanonicalHash(RecordHeader(document));
  } catch (const nlohmann::json::exception&) {
    return Problem(Part::kHeader, -1, "record header: not valid UTF-8 (edited)");
  }
  for (int k = 0; k < static_cast<int>(journal.size()); ++k) {
    const json& e = journal[k];
    if (!e.is_object() || !e.contains("hash") || !IsSha256Hex(e["hash"])) return Problem(Part::kJournal, k, JournalAt(k) + ": no valid hash (edited)");
    std::string computed;
    try {
      computed = EntryHash(e);
    } catch (const nlohmann::json::exception&) {
      return Problem(Part::kJournal, k, JournalAt(k) + ": not valid UTF-8 (edited)");
    }
    if (computed != e["hash"]) return Problem(Part::kJournal, k, JournalAt(k) + ": hash does not match its content (edited)");
    const json expected = k == 0 ? json(header_hash) : journal[k - 1]["hash"];
    if (!e.contains("prev") || e["prev"] != expected) return DiagnosePrev(journal, k, header_hash);
  }
  return CheckHead(document, journal);
}

ChainProblem CheckEntries(const json& journal, std::vector<int>* standing) {
  EntryState state;
  const int n = static_cast<int>(journal.size());
  for (int k = 0; k < n; ++k) {
    const json& e = journal[k];
    auto bad = [&](const std::string& text) { return Problem(Part::kJournal, k, JournalAt(k) + text); };
    if (e.value("seq", json(nullptr)) != k) return bad(".seq: expected " + std::to_string(k) + ", got " + e.value("seq", json(nullptr)).dump());
    const auto kind = e.contains("kind") && e["kind"].is_string() ? EntryKindFromString(e["kind"].get<std::string>()) : std::nullopt;
    if (!kind) return bad(".kind: expected an entry kind (docs/record.md), got " + e.value("kind", json(nullptr)).dump());
    if (!e.contains("time") || !e["time"].is_string()) return bad(".time: expected a UTC time");
    if (!e.contains("data")) return bad(".data: missing");
    if (auto problem = CheckEntryData(*kind, e["data"], JournalAt(k) + ".data"); !problem.empty()) return Problem(Part::kJournal, k, problem);
    if ((k == 0) != (*kind == EntryKind::kStart)) return bad(k == 0 ? ": the first entry must be the start" : ": a second start entry");
    if (*kind == EntryKind::kEnd && k != n - 1)
      return Problem(Part::kJournal, k + 1, JournalAt(k + 1) + ": an entry after the end entry (journal[" + std::to_string(k) + "])");
    if (auto p = CheckReferences(journal, k, *kind, &state); p.found()) return p;
  }
  *standing = std::move(state.standing);
  return {};
}

ChainProblem CheckActions(const json& document, const std::vector<int>& standing) {
  if (!document.contains("actions") || !document["actions"].is_array()) return Problem(Part::kActions, 0, "record.actions: expected an array (edited)");
  const json& actions = document["actions"];
  const json& journal = document["journal"];
  const size_t n = std::min(actions.size(), standing.size());
  for (size_t i = 0; i < n; ++i) {
    if (actions[i] != journal[standing[i]]["data"]["action"])
      return Problem(Part::kActions, static_cast<int>(i), "record.actions[" + std::to_string(i) + "] differs from journal[" + std::to_string(standing[i]) + "]");
  }
  if (actions.size() > n)
    return Problem(Part::kActions, static_cast<int>(n), "record.actions[" + std::to_string(n) + "]: not in the journal (inserted)");
  if (standing.size() > n)
    return Problem(Part::kActions, static_cast<int>(n), "record.actions[" + std::to_string(n) + "]: missing, journal[" + std::to_string(standing[n]) +
                                                            "] records it (deleted)");
  return {};
}

std::string JournalAt(int k) { return "record.journal[" + std::to_string(k) + "]"; }

}  // namespace swref::core
