#include "app/core/demo_table.h"

#include <algorithm>
#include <fstream>

#include "app/core/setup.h"
#include "datasets/game_frames.h"
#include "engine/json_input.h"
#include "engine/observed.h"

namespace swref::core {
namespace fs = std::filesystem;
namespace {

using R = engine::Result<DemoTable>;

// The frames' truth (truth.jsonl), by frame index.
std::vector<vision::Observation> ReadTruth(const fs::path& file) {
  std::vector<vision::Observation> out;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    auto o = vision::ParseObservation(nlohmann::json::parse(line, nullptr, false), file.string());
    if (o) out.push_back(std::move(*o));
  }
  return out;
}

nlohmann::json ReadyStamp(uint64_t seed, cv::Size frame) { return {{"seed", seed}, {"frame", {frame.width, frame.height}}}; }

// The table's events and truth, read from a prepared folder.
R Load(const fs::path& dir) {
  DemoTable table;
  table.dir = dir;
  table.setup = (dir / "setup").string();
  table.frames = (dir / "table" / "frames").string();
  auto events = ReadEventsFile((dir / "table" / "events.jsonl").string());
  if (!events) return R::Error(events.error());
  table.events = std::move(*events);
  table.truth = ReadTruth(dir / "table" / "truth.jsonl");
  return table;
}

}  // namespace

nlohmann::json TruthCorrections(const engine::ObservedBoard& seen, const engine::ObservedBoard& real, const std::vector<int>& confirm,
                                int* misread) {
  nlohmann::json list = nlohmann::json::array();
  if (misread) *misread = 0;
  for (int id = 0; id < real.size() && id < seen.size(); ++id) {
    const engine::ObservedRegion& r = real.regions[id];
    const engine::ObservedRegion& v = seen.regions[id];
    const bool same = v.race == r.race && v.decline == r.decline && v.tokens == r.tokens && v.lost_tribe == r.lost_tribe &&
                      v.mountain == r.mountain && v.troll_lair == r.troll_lair && v.fortress == r.fortress &&
                      v.encampments == r.encampments && v.hole == r.hole && v.hero == r.hero && v.dragon == r.dragon;
    const bool right = same && v.tokens_certain;
    if (right && std::find(confirm.begin(), confirm.end(), id) == confirm.end()) continue;
    if (misread && !right) ++*misread;
    nlohmann::json pieces = {
        {"mountain", r.mountain}, {"troll_lair", r.troll_lair}, {"fortress", r.fortress}, {"encampment", r.encampments}, {"hole", r.hole},
        {"hero", r.hero},         {"dragon", r.dragon}};
    list.push_back({{"region", id},
                    {"race", r.race ? nlohmann::json(engine::Info(*r.race).id) : nlohmann::json(nullptr)},
                    {"decline", r.decline},
                    {"tokens", r.tokens},
                    {"lost_tribe", r.lost_tribe},
                    {"pieces", pieces}});
  }
  return list;
}

std::optional<TableEvent> DemoTable::Answer(const RefereeSession& session, int64_t frame) const {
  if (session.open_question() < 0 || !session.last_seen() || frame < 0 || frame >= static_cast<int64_t>(truth.size())) return std::nullopt;
  const nlohmann::json list = TruthCorrections(*session.last_seen(), ToObserved(truth[frame]), session.open_regions());
  if (list.empty()) return std::nullopt;
  TableEvent e;
  e.after_frame = frame;
  e.type = EventType::kCorrect;
  e.body = {{"do", "correct"}, {"regions", list}};
  e.corrections.assign(list.begin(), list.end());
  return e;
}

engine::Result<DemoTable> PrepareDemoTable(const engine::Record& script, const fs::path& dir, uint64_t seed, cv::Size frame,
                                           const DemoProgress& progress, const std::atomic<bool>* cancel) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec)) return R::Error(dir.string() + ": the folder is not empty; give a new folder");
  // A cancel is seen at every progress step; inside the frames' writer (which cannot stop by itself) it unwinds
  // as an exception of its own, caught here. Every file written so far is removed.
  struct Cancelled {};
  const auto step = [&](const std::string& stage, int64_t done, int64_t total) {
    if (cancel && cancel->load()) throw Cancelled{};
    if (progress) progress(stage, done, total);
  };
  try {
    // 1. The camera's frames of the scripted game.
    datasets::GameFramesOptions fo;
    fo.out = (dir / "table").string();
    fo.frame = frame;
    fo.seed = seed;
    auto frames = datasets::WriteGameFrames(script, fo, [&](int d, int t) { step("frames", d, t); });
    if (!frames) return R::Error(frames.error());

    // 2. Setting up the table: the board from its reference photo, the tokens from their photos.
    step("setup", 0, 2);
    calibration::SetupRequest sr;
    sr.map = script.map;
    sr.layout = (dir / "table" / "layout.json").string();
    sr.reference = (dir / "table" / "reference.png").string();
    sr.camera = (dir / "table" / "camera.json").string();
    sr.out = (dir / "setup").string();
    auto setup = core::SetupBoard(sr);
    if (!setup) return R::Error(setup.error());
    step("setup", 1, 2);
    auto enrolled = EnrollFromCrops(sr.out, (dir / "table" / "crops").string());
    if (!enrolled) return R::Error(enrolled.error());
    step("setup", 2, 2);
  } catch (const Cancelled&) {
    fs::remove_all(dir, ec);
    return R::Error(kDemoCancelled);
  }
  std::ofstream(dir / "demo-ready.json") << ReadyStamp(seed, frame).dump() << "\n";
  return Load(dir);
}

engine::Result<DemoTable> OpenDemoTable(const fs::path& dir, uint64_t seed, cv::Size frame) {
  const fs::path stamp = dir / "demo-ready.json";
  auto doc = engine::ReadJsonFile(stamp, 4096, "demo table stamp");
  if (!doc) return R::Error(doc.error());
  if (*doc != ReadyStamp(seed, frame)) return R::Error(stamp.string() + ": made for another seed or frame size");
  return Load(dir);
}

}  // namespace swref::core
