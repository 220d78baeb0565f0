#include "app/core/camera_demo.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "app/core/truth_players.h"

namespace swref::core {
namespace fs = std::filesystem;

engine::Result<CameraDemoReport> RunCameraDemo(const CameraDemoOptions& options, const DemoProgress& progress) {
  auto script = RunDemo(options.seed);
  if (!script) return engine::Result<CameraDemoReport>::Error(script.error());
  return RefereeScript(*script, options, progress);
}

engine::Result<CameraDemoReport> RefereeScript(const DemoReport& scripted, const CameraDemoOptions& options, const DemoProgress& progress) {
  using R = engine::Result<CameraDemoReport>;
  CameraDemoReport report;
  report.script = scripted;
  const DemoReport* script = &report.script;

  // The work folder: the table's photos and material, the setup, the record.
  const bool temporary = options.work_dir.empty();
  const fs::path work = temporary ? fs::temp_directory_path() / ("swref-demo-" + std::to_string(::getpid())) : fs::path(options.work_dir);
  std::error_code ec;
  if (temporary) fs::remove_all(work, ec);
  if (fs::exists(work, ec) && !fs::is_empty(work, ec)) return R::Error(work.string() + ": the folder is not empty; give a new folder");
  struct Cleanup {
    fs::path dir;
    bool on;
    ~Cleanup() {
      std::error_code e;
      if (on) fs::remove_all(dir, e);
    }
  } cleanup{work, temporary};

  // 1-2. The camera's frames of the scripted game; the table set up from its photos.
  auto table = PrepareDemoTable(script->record, work, options.seed, options.frame, progress);
  if (!table) return R::Error(table.error());

  // 3. The referee, watching the frames and hearing the events.
  RefereeOptions ro;
  ro.setup = table->setup;
  ro.incremental = options.incremental;
  ro.record = options.record_out.empty() ? (work / "record.json").string() : options.record_out;
  if (!options.record_out.empty()) fs::remove(options.record_out, ec);
  auto session = RefereeSession::Start(ro, script->record);
  if (!session) return R::Error(session.error());
  auto source = OpenImageFolder(table->frames);
  if (!source) return R::Error(source.error());
  RefereeSession& s = **session;
  std::function<void(const Notice&)> on_notice = [&](const Notice& n) {
    if (options.on_notice) options.on_notice(n);
    if (n.kind == NoticeKind::kCoins) {
      const nlohmann::json& c = n.data["coins"];
      report.turns.resize(std::min(report.turns.size(), n.data.value("turn", report.turns.size())));  // an amended turn: told anew
      report.turns.push_back({n.data.value("round", 0), n.data.value("player", ""), "",
                              engine::CoinBreakdown{c.value("regions", 0), c.value("race", 0), c.value("power", 0)}, n.data.value("after", 0)});
    }
    if (n.kind == NoticeKind::kResolved && n.data.is_object() && n.data.value("withdrawn", false) && !report.flags.empty()) {
      report.flags.pop_back();  // the open flag: raised on a misreading
      ++report.flags_withdrawn;
    }
    if (n.kind == NoticeKind::kFlag) {
      report.flags.push_back({static_cast<int>(s.journal().actions().size()), s.game().round(), n.data.value("player", ""),
                              n.data.value("region", -1), n.data.value("code", ""), n.data.value("why", "")});
    }
  };
  // The players answer a question by looking at the board (truth_players.h).
  TruthPlayers players(s, table->truth);
  auto on_frame_notice = [&](const Notice& n) { players.OnNotice(n, on_notice); };
  auto run = RunReferee(s, **source, table->events, on_frame_notice, [&](int64_t d, int64_t t) {
    if (progress) progress("referee", d, t);
  });
  if (!run) return R::Error(run.error());
  report.run = *run;
  report.questions = players.questions();
  report.answered = players.corrected();
  report.taken_back = players.taken_back();

  // 4. The refereed game, against the script.
  const engine::Game& g = s.game();
  for (const auto& p : g.players()) report.final_coins.emplace_back(p.name, p.coins);
  for (int w : g.Winners()) report.winners.push_back(s.players()[w]);
  for (size_t i = 0; i < report.turns.size() && i < script->turns.size(); ++i) report.turns[i].combo = script->turns[i].combo;
  if (report.turns.size() != script->turns.size()) {
    report.differences.push_back("the referee tallied " + std::to_string(report.turns.size()) + " turns, the script " + std::to_string(script->turns.size()));
  }
  for (size_t i = 0; i < report.turns.size() && i < script->turns.size(); ++i) {
    const engine::CoinBreakdown& a = report.turns[i].coins;
    const engine::CoinBreakdown& b = script->turns[i].coins;
    const bool exact = a.regions == b.regions && a.race == b.race && a.power == b.power && report.turns[i].player == script->turns[i].player;
    report.turns_exact += exact;
    if (!exact) {
      report.differences.push_back("round " + std::to_string(script->turns[i].round) + ", " + script->turns[i].player + ": referee " +
                                   std::to_string(report.turns[i].coins.total()) + " coins, script " + std::to_string(script->turns[i].coins.total()));
    }
  }
  // Flags: each of the referee's matched with the script's illegal conquest of the same turn and region.
  std::vector<bool> used(script->flags.size(), false);
  for (const DemoFlag& f : report.flags) {
    bool found = false;
    for (size_t i = 0; i < script->flags.size() && !found; ++i) {
      const DemoFlag& want = script->flags[i];
      if (used[i] || want.round != f.round || want.player != f.player || want.region != f.region) continue;
      used[i] = found = true;
      ++report.flags_matched;
      if (want.code == f.code) ++report.flags_same_code;
    }
    if (!found) report.differences.push_back("round " + std::to_string(f.round) + ", " + f.player + ": a flag on region " + std::to_string(f.region) + " (" + f.code + ") the script does not have");
  }
  for (size_t i = 0; i < script->flags.size(); ++i) {
    if (!used[i]) {
      const DemoFlag& want = script->flags[i];
      report.differences.push_back("round " + std::to_string(want.round) + ", " + want.player + ": the illegal conquest of region " + std::to_string(want.region) + " (" +
                                   want.code + ") was not flagged");
    }
  }
  if (report.final_coins != script->final_coins) report.differences.push_back("the final coins differ from the script's");
  report.solo_result = SoloResultLine(g);
  if (report.solo_result != script->solo_result) report.differences.push_back("the referee ends with " + report.solo_result + ", the script with " + script->solo_result);
  report.record = options.record_out.empty() ? "" : options.record_out;
  return report;
}

}  // namespace swref::core
