#include "datasets/eval.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "engine/components.h"
#include "engine/json_input.h"

namespace swref::datasets {
namespace {

std::string KindOf(const vision::RegionObservation& r) {
  if (!r.race || r.tokens == 0) return "empty";
  return *r.race + (r.decline ? "_decline" : "");
}

}  // namespace

double EvalReport::median_ms() const {
  if (ms.empty()) return 0;
  std::vector<double> v = ms;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

std::vector<TruthToken> TruthTokens(const nlohmann::json& frame_line) {
  std::vector<TruthToken> out;
  if (!frame_line.contains("tokens") || !frame_line["tokens"].is_array()) return out;
  for (const auto& t : frame_line["tokens"]) {
    out.push_back({t.value("kind", ""), {t.value("x_mm", 0.0), t.value("y_mm", 0.0)}, t.value("stack", 1)});
  }
  return out;
}

void ScoreTokens(const std::vector<TruthToken>& truth, const std::vector<vision::Instance>& seen, TokenScore* score) {
  std::vector<bool> used(seen.size(), false);
  for (const TruthToken& t : truth) {
    ++score->tokens;
    int best = -1;
    double best_d = 6.0;
    for (size_t i = 0; i < seen.size(); ++i) {
      const double d = cv::norm(seen[i].centre_mm - t.centre_mm);
      if (!used[i] && d < best_d) best_d = d, best = static_cast<int>(i);
    }
    const bool race = t.kind != "lost_tribe" && engine::RaceFromId(engine::SplitDecline(t.kind).first).has_value();
    if (t.stack > 1) ++score->stacks;
    if (best < 0) {
      score->confusion[t.kind]["missed"]++;
      continue;
    }
    used[best] = true;
    const vision::Instance& s = seen[best];
    ++score->found;
    score->kind_right += s.kind == t.kind;
    score->confusion[t.kind][s.kind]++;
    const bool flagged = s.stack > 1 || s.stack_unsure;
    if (t.stack > 1)
      score->stacks_flagged += flagged;
    else if (race)
      ++score->singles, score->singles_flagged += flagged;
  }
  for (bool u : used) score->extra += !u;
}

void Merge(EvalReport* into, const EvalReport& from) {
  for (auto [dst, src] : {std::pair{&into->images, from.images},
                          {&into->motion_images, from.motion_images},
                          {&into->motion_detected, from.motion_detected},
                          {&into->false_motion, from.false_motion},
                          {&into->no_board, from.no_board},
                          {&into->regions, from.regions},
                          {&into->region_errors, from.region_errors},
                          {&into->uncertain, from.uncertain},
                          {&into->silent_errors, from.silent_errors},
                          {&into->boards_exact, from.boards_exact},
                          {&into->count_errors, from.count_errors},
                          {&into->stacks, from.stacks},
                          {&into->silent_wrong_stacks, from.silent_wrong_stacks},
                          {&into->missing, from.missing},
                          {&into->token.tokens, from.token.tokens},
                          {&into->token.found, from.token.found},
                          {&into->token.kind_right, from.token.kind_right},
                          {&into->token.extra, from.token.extra},
                          {&into->token.stacks, from.token.stacks},
                          {&into->token.stacks_flagged, from.token.stacks_flagged},
                          {&into->token.singles, from.token.singles},
                          {&into->token.singles_flagged, from.token.singles_flagged}})
    *dst += src;
  for (const auto& [t, row] : from.confusion)
    for (const auto& [o, n] : row) into->confusion[t][o] += n;
  for (const auto& [t, row] : from.token.confusion)
    for (const auto& [o, n] : row) into->token.confusion[t][o] += n;
  into->ms.insert(into->ms.end(), from.ms.begin(), from.ms.end());
}

bool RegionRight(const vision::RegionObservation& truth, const vision::RegionObservation& observed) {
  if (KindOf(truth) != KindOf(observed) || truth.pieces != observed.pieces || truth.lost_tribe != observed.lost_tribe) return false;
  if (truth.tokens_certain) return observed.tokens == truth.tokens;
  // A hidden count: an honest lower bound is right, a confident number is right only if it is the true one.
  return observed.tokens_certain ? observed.tokens == truth.tokens : observed.tokens <= truth.tokens;
}

EvalReport Evaluate(const std::vector<vision::Observation>& truth, const std::vector<vision::Observation>& observed) {
  std::map<std::string, const vision::Observation*> by_image;
  for (const auto& o : observed) by_image[o.image] = &o;
  EvalReport report;
  for (const vision::Observation& t : truth) {
    auto it = by_image.find(t.image);
    if (it == by_image.end()) {
      ++report.missing;
      continue;
    }
    const vision::Observation& o = *it->second;
    if (o.ms) report.ms.push_back(*o.ms);
    if (t.status == vision::Status::kMotion) {
      ++report.motion_images;
      report.motion_detected += o.status == vision::Status::kMotion;
      continue;
    }
    if (o.status == vision::Status::kMotion) {
      ++report.false_motion;
      continue;
    }
    ++report.images;
    if (o.status != vision::Status::kOk) {
      ++report.no_board;
      report.regions += static_cast<int>(t.regions.size());
      report.region_errors += static_cast<int>(t.regions.size());
      continue;
    }
    std::map<int, const vision::RegionObservation*> regions;
    for (const auto& r : o.regions) regions[r.id] = &r;
    bool exact = true;
    for (const vision::RegionObservation& tr : t.regions) {
      ++report.regions;
      vision::RegionObservation empty;  // a region the observer left out counts as seen empty
      empty.id = tr.id;
      auto rit = regions.find(tr.id);
      const vision::RegionObservation& orr = rit == regions.end() ? empty : *rit->second;
      const bool right = RegionRight(tr, orr);
      report.confusion[KindOf(tr)][KindOf(orr)]++;
      if (!tr.tokens_certain) {
        ++report.stacks;
        report.silent_wrong_stacks += orr.tokens_certain && orr.tokens != tr.tokens;
      }
      const bool flagged = orr.confidence < vision::kUncertainBelow;
      report.uncertain += flagged;
      if (!right) {
        ++report.region_errors;
        report.silent_errors += !flagged;
        exact = false;
        report.count_errors += KindOf(tr) == KindOf(orr) && tr.pieces == orr.pieces && tr.lost_tribe == orr.lost_tribe;
      }
    }
    report.boards_exact += exact;
  }
  return report;
}

engine::Result<std::vector<vision::Observation>> ReadObservations(const std::string& path) {
  using R = engine::Result<std::vector<vision::Observation>>;
  std::ifstream in(path);
  if (std::string why = engine::OpenProblem(in, path, "observations file"); !why.empty()) return R::Error(why);
  std::error_code ec;
  if (const auto size = std::filesystem::file_size(path, ec); !ec && size > engine::kMaxJsonLinesBytes) {
    return R::Error(path + ": " + std::to_string(size) + " bytes, more than the limit of " + std::to_string(engine::kMaxJsonLinesBytes) +
                    " bytes");
  }
  std::vector<vision::Observation> out;
  std::string line;
  size_t total = 0;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::string where = path + ":" + std::to_string(n);
    total += line.size() + 1;
    if (total > engine::kMaxJsonLinesBytes)
      return R::Error(where + ": the file is longer than the limit of " + std::to_string(engine::kMaxJsonLinesBytes) + " bytes");
    if (line.size() > engine::kMaxJsonLineBytes)
      return R::Error(where + ": a line longer than the limit of " + std::to_string(engine::kMaxJsonLineBytes) + " bytes");
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto doc = engine::ParseJsonText(line, where);
    if (!doc) return R::Error(doc.error());
    auto obs = vision::ParseObservation(*doc, where);
    if (!obs) return R::Error(obs.error());
    out.push_back(std::move(*obs));
  }
  return out;
}

std::string FormatReport(const EvalReport& r) {
  std::string s;
  char buf[256];
  std::snprintf(buf, sizeof buf, "images scored %d (missing %d); still images read as motion %d; board not found %d\n", r.images, r.missing,
                r.false_motion, r.no_board);
  s += buf;
  std::snprintf(buf, sizeof buf, "region error %.2f%% (%d of %d; %d wrong counts of the right kind)\n", 100 * r.region_error_rate(),
                r.region_errors, r.regions, r.count_errors);
  s += buf;
  std::snprintf(buf, sizeof buf, "silent region error %.2f%% (%d wrong and not flagged); flagged uncertain %.2f%% (%d regions)\n",
                100 * r.silent_error_rate(), r.silent_errors, 100 * r.uncertain_rate(), r.uncertain);
  s += buf;
  std::snprintf(buf, sizeof buf, "board exact match %.1f%% (%d of %d)\n", 100 * r.exact_rate(), r.boards_exact, r.images);
  s += buf;
  std::snprintf(buf, sizeof buf, "stacks %d, silent wrong counts on stacks %d\n", r.stacks, r.silent_wrong_stacks);
  s += buf;
  std::snprintf(buf, sizeof buf, "motion images %d, reported as motion %d\n", r.motion_images, r.motion_detected);
  s += buf;
  std::snprintf(buf, sizeof buf, "median %.1f ms per image\n", r.median_ms());
  s += buf;
  if (r.token.tokens > 0) {
    const TokenScore& t = r.token;
    std::snprintf(buf, sizeof buf, "tokens %d: found %d, kind right %d (token-kind accuracy %.2f%%), %d found where none lies\n", t.tokens,
                  t.found, t.kind_right, 100 * t.kind_accuracy(), t.extra);
    s += buf;
    std::snprintf(buf, sizeof buf, "stacks %d: flagged %d; single race tokens %d: flagged as possible stacks %d\n", t.stacks,
                  t.stacks_flagged, t.singles, t.singles_flagged);
    s += buf;
    std::string wrong;
    for (const auto& [truth, row] : t.confusion)
      for (const auto& [seen, n] : row)
        if (seen != truth) wrong += " " + truth + "->" + seen + " x" + std::to_string(n) + ";";
    if (!wrong.empty()) s += "token mistakes:" + wrong + "\n";
  }
  // The confusion table, only the kinds that occur.
  std::set<std::string> cols;
  for (const auto& [t, row] : r.confusion) {
    for (const auto& [o, n] : row) cols.insert(o);
  }
  int width = 5;
  for (const auto& c : cols) width = std::max(width, static_cast<int>(c.size()));
  s += "\nconfusion by token kind (rows: truth, columns: observed; regions)\n";
  std::snprintf(buf, sizeof buf, "%-20s", "");
  s += buf;
  for (const auto& c : cols) {
    std::snprintf(buf, sizeof buf, " %*s", width, c.c_str());
    s += buf;
  }
  s += "\n";
  for (const auto& [t, row] : r.confusion) {
    std::snprintf(buf, sizeof buf, "%-20s", t.c_str());
    s += buf;
    for (const auto& c : cols) {
      auto it = row.find(c);
      std::snprintf(buf, sizeof buf, " %*d", width, it == row.end() ? 0 : it->second);
      s += buf;
    }
    s += "\n";
  }
  return s;
}

}  // namespace swref::datasets
