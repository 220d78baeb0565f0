#include "app/core/referee_state.h"

#include <cmath>

#include "app/core/resume_point.h"
#include "engine/components.h"

namespace swref::core {
namespace {

using nlohmann::json;

constexpr size_t kMaxList = 10000;  // corrections, waiting events, options, actions of an option
constexpr size_t kMaxText = 64 << 10;
constexpr int64_t kMaxFrame = int64_t{1} << 40;
constexpr double kMaxMm = 1e5;        // a board coordinate
constexpr size_t kMaxSceneFrames = 1000;  // the observer's scene rests on at most ObserverOptions::full_every frames

json BoardJson(const engine::ObservedBoard& board) { return json(engine::ToJson(board)); }
json RegionJson(const engine::ObservedRegion& region) { return BoardJson(engine::ObservedBoard{{region}}); }

// A board of `regions` regions (an observation's), or nothing with the error set on `r`.
std::optional<engine::ObservedBoard> ReadBoard(FieldReader& r, const char* key, int regions) {
  const json* v = r.Array(key, 1000);
  if (!v) return std::nullopt;
  auto board = engine::ParseObservedBoard(*v, regions, r.Place(key));
  if (!board) return r.Fail(board.error()), std::nullopt;
  return *board;
}

bool IsNull(const json& doc, const char* key) { return doc.is_object() && doc.contains(key) && doc[key].is_null(); }

void ReadPose(FieldReader& top, SessionState* s) {
  const json* p = top.Object("pose");
  if (!p) return;
  FieldReader r(*p, top.Place("pose"));
  int64_t frame = -1;
  int mode = 0;
  r.Int("frame", int64_t{0}, kMaxFrame, &frame);
  r.Int("mode", 0, 2, &mode);
  s->pose.mode = static_cast<calibration::Registration>(mode);
  if (const json* m = r.Array("image_from_board", 9)) {
    for (size_t i = 0; i < 9 && r.ok(); ++i) {
      if (m->size() != 9 || !(*m)[i].is_number() || !std::isfinite((*m)[i].get<double>()))
        r.Fail(r.Place("image_from_board") + ": expected 9 finite numbers");
      else
        s->pose.image_from_board.val[i] = (*m)[i].get<double>();
    }
  }
  if (r.ok() && (*p).contains("residual_px") && (*p)["residual_px"].is_number()) s->pose.residual_px = (*p)["residual_px"].get<double>();
  if (const json* found = r.Array("markers_found", 64)) {
    for (const json& id : *found) {
      if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() > 1000000)
        r.Fail(r.Place("markers_found") + ": expected marker ids");
      else
        s->pose.markers_found.push_back(id.get<int>());
    }
  }
  if (r.ok() && frame != s->pose_frame) r.Fail(r.Place("frame") + ": expected the pose_frame, " + std::to_string(s->pose_frame));
  // The frames the observer's still scene rests on (written since incremental observation; an older point has none),
  // in order, taken already, and no more than a scene keeps.
  const json* scene = p->contains("scene_frames") ? r.Array("scene_frames", kMaxSceneFrames) : nullptr;
  for (size_t i = 0; scene && i < scene->size() && r.ok(); ++i) {
    const json& v = (*scene)[i];
    const int64_t after = s->scene_frames.empty() ? -1 : s->scene_frames.back();
    if (!v.is_number_integer() || v.get<int64_t>() <= after || v.get<int64_t>() > s->last_frame)
      r.Fail(r.Place("scene_frames") + "[" + std::to_string(i) + "]: expected frames in increasing order up to the last frame, " +
             std::to_string(s->last_frame));
    else
      s->scene_frames.push_back(v.get<int64_t>());
  }
  // The observer's possible stacks under that pose (written since this field was added; an older point has none).
  const json* stacks = p->contains("possible_stacks") ? r.Array("possible_stacks", kMaxList) : nullptr;
  for (size_t i = 0; stacks && i < stacks->size() && r.ok(); ++i) {
    const json& entry = (*stacks)[i];
    FieldReader e(entry, r.Place("possible_stacks") + "[" + std::to_string(i) + "]");
    vision::PossibleStack stack;
    auto mm = [&](const char* key, double* out) {  // a coordinate on the board
      const json v = entry.is_object() && entry.contains(key) ? entry[key] : json();
      if (!v.is_number() || !std::isfinite(v.get<double>()) || std::abs(v.get<double>()) > kMaxMm)
        return e.Fail(e.Place(key) + ": expected a position on the board in mm");
      *out = v.get<double>();
      return true;
    };
    if (e.String("kind", 64, &stack.kind) && !engine::RaceFromId(engine::SplitDecline(stack.kind).first))
      e.Fail(e.Place("kind") + ": expected a race token kind (\"ratmen\", \"ratmen_decline\")");
    if (e.ok() && mm("x_mm", &stack.centre_mm.x) && mm("y_mm", &stack.centre_mm.y)) s->possible_stacks.push_back(std::move(stack));
    if (!e.ok()) r.Fail(e.error);
  }
  if (!r.ok()) top.Fail(r.error);
}

void ReadCorrections(FieldReader& r, int regions, SessionState* s) {
  const json* list = r.Array("corrections", kMaxList);
  for (size_t i = 0; list && i < list->size() && r.ok(); ++i) {
    FieldReader c((*list)[i], r.Place("corrections") + "[" + std::to_string(i) + "]");
    int region = 0;
    c.Int("region", 0, regions - 1, &region);
    auto raw = ReadBoard(c, "raw", 1), corrected = ReadBoard(c, "corrected", 1);
    if (!c.ok())
      r.Fail(c.error);
    else
      s->corrections[region] = {raw->regions[0], corrected->regions[0]};
  }
}

void ReadOptions(FieldReader& r, const StateContext& context, SessionState* s) {
  const json* list = r.Array("options", kMaxList);
  for (size_t i = 0; list && i < list->size() && r.ok(); ++i) {
    FieldReader o((*list)[i], r.Place("options") + "[" + std::to_string(i) + "]");
    engine::Reading reading;
    o.Bool("die_used", &reading.die_used);
    const json* actions = o.Array("actions", kMaxList);
    for (size_t k = 0; actions && k < actions->size() && o.ok(); ++k) {
      auto a = engine::ParseAction((*actions)[k], context.players, o.Place("actions") + "[" + std::to_string(k) + "]", context.solo);
      if (!a)
        o.Fail(a.error());
      else
        reading.actions.push_back({*a, {}});
    }
    if (!o.ok())
      r.Fail(o.error);
    else
      s->options.push_back(std::move(reading));
  }
}

}  // namespace

json ToJson(const SessionState& s, const std::vector<std::string>& players) {
  json corrections = json::array();
  for (const auto& [region, c] : s.corrections)
    corrections.push_back({{"region", region}, {"raw", RegionJson(c.raw)}, {"corrected", RegionJson(c.corrected)}});
  json deferred = json::array();
  for (const TableEvent& e : s.deferred) {
    json told = e.body;
    told["after_frame"] = e.after_frame;
    deferred.push_back(told);
  }
  json options = json::array();
  for (const engine::Reading& reading : s.options) {
    json actions = json::array();
    for (const engine::ExplainedAction& a : reading.actions) actions.push_back(engine::ToJson(a.action, players));
    options.push_back({{"actions", actions}, {"die_used", reading.die_used}});
  }
  json pose = nullptr;
  if (s.pose_frame >= 0) {
    json m = json::array();
    for (int i = 0; i < 9; ++i) m.push_back(s.pose.image_from_board.val[i]);
    json stacks = json::array();
    for (const vision::PossibleStack& p : s.possible_stacks)
      stacks.push_back({{"kind", p.kind}, {"x_mm", p.centre_mm.x}, {"y_mm", p.centre_mm.y}});
    pose = {{"frame", s.pose_frame},
            {"mode", static_cast<int>(s.pose.mode)},
            {"image_from_board", m},
            {"residual_px", s.pose.residual_px},
            {"markers_found", s.pose.markers_found},
            {"possible_stacks", stacks},
            {"scene_frames", s.scene_frames}};
  }
  return {{"last_frame", s.last_frame},
          {"frames_seen", s.frames_seen},
          {"frames_observed", s.frames_observed},
          {"coins_told", s.coins_told},
          {"still", {{"frames", s.still.still_frames}, {"stable", s.still.stable}, {"state", s.still_state}}},
          {"observed_frame", s.observed_frame},
          {"still_frame", s.still_frame},
          {"pose_frame", s.pose_frame},
          {"pose", pose},
          {"last_raw", s.last_raw.size() > 0 ? BoardJson(s.last_raw) : json(nullptr)},
          {"last_sha", s.last_sha},
          {"last_seen", s.last_seen ? BoardJson(*s.last_seen) : json(nullptr)},
          {"committed_seen", BoardJson(s.committed_seen)},
          {"corrections", corrections},
          {"die", s.die},
          {"die_player", s.die_player},
          {"question_die", s.question_die},
          {"question_die_player", s.question_die_player},
          {"open_flag", s.open_flag},
          {"open_question", s.open_question},
          {"flag_region", s.flag_region},
          {"open_text", s.open_text},
          {"deferred", deferred},
          {"options", options},
          {"question_regions", s.question_regions}};
}

engine::Result<SessionState> ParseSessionState(const json& doc, const StateContext& context, const std::string& where) {
  FieldReader r(doc, where);
  SessionState s;
  const int regions = context.regions;
  const int entries = static_cast<int>(context.kinds.size());
  int64_t coins_told = 0;
  r.Int("last_frame", int64_t{-1}, kMaxFrame, &s.last_frame);
  r.Int("frames_seen", int64_t{0}, kMaxFrame, &s.frames_seen);
  r.Int("frames_observed", int64_t{0}, kMaxFrame, &s.frames_observed);
  r.Int("coins_told", int64_t{0}, static_cast<int64_t>(context.scores), &coins_told);
  s.coins_told = static_cast<size_t>(coins_told);
  if (const json* still = r.Object("still")) {
    FieldReader sr(*still, r.Place("still"));
    sr.Int("frames", 0, 1 << 30, &s.still.still_frames);
    sr.Bool("stable", &s.still.stable);
    sr.Int("state", 0, 2, &s.still_state);
    if (!sr.ok()) r.Fail(sr.error);
  }
  // Frames named must have been taken already.
  r.Int("observed_frame", int64_t{-1}, s.last_frame, &s.observed_frame);
  r.Int("still_frame", int64_t{-1}, s.last_frame, &s.still_frame);
  r.Int("pose_frame", int64_t{-1}, s.last_frame, &s.pose_frame);
  if (r.ok() && s.pose_frame >= 0) ReadPose(r, &s);
  if (!IsNull(doc, "last_raw")) {
    if (auto b = ReadBoard(r, "last_raw", regions)) s.last_raw = *b;
  }
  if (r.String("last_sha", 64, &s.last_sha) && !s.last_sha.empty() && !IsSha256Hex(s.last_sha))
    r.Fail(r.Place("last_sha") + ": expected a SHA-256 (64 hex digits)");
  if (!IsNull(doc, "last_seen")) s.last_seen = ReadBoard(r, "last_seen", regions);
  if (auto b = ReadBoard(r, "committed_seen", regions)) s.committed_seen = *b;
  ReadCorrections(r, regions, &s);
  // What is open: a flag and a question are journal entries of their kind.
  r.Int("die", -1, 3, &s.die);
  // Whose die it is (written since this field was added; an older point's die belongs to whoever plays next).
  if (doc.is_object() && doc.contains("die_player")) r.Int("die_player", -1, static_cast<int>(context.players.size()) - 1, &s.die_player);
  r.Int("open_flag", -1, entries - 1, &s.open_flag);
  r.Int("open_question", -1, entries - 1, &s.open_question);
  // The die an open question's readings roll (SoloPlay; written since this field was added).
  if (doc.is_object() && doc.contains("question_die")) {
    r.Int("question_die", -1, 3, &s.question_die);
    r.Int("question_die_player", -1, static_cast<int>(context.players.size()) - 1, &s.question_die_player);
    if (r.ok() && s.question_die >= 0 && s.open_question < 0) r.Fail(r.Place("question_die") + ": no question is open");
  }
  r.Int("flag_region", -1, regions - 1, &s.flag_region);
  r.String("open_text", kMaxText, &s.open_text);
  if (r.ok() && s.open_flag >= 0 && context.kinds[s.open_flag] != EntryKind::kFlag)
    r.Fail(r.Place("open_flag") + ": entry " + std::to_string(s.open_flag) + " is no flag");
  if (r.ok() && s.open_question >= 0 && context.kinds[s.open_question] != EntryKind::kQuestion)
    r.Fail(r.Place("open_question") + ": entry " + std::to_string(s.open_question) + " is no question");
  const json* deferred = r.Array("deferred", kMaxList);
  for (size_t i = 0; deferred && i < deferred->size() && r.ok(); ++i) {
    auto e = ParseTableEvent((*deferred)[i], r.Place("deferred") + "[" + std::to_string(i) + "]");
    if (!e)
      r.Fail(e.error());
    else
      s.deferred.push_back(std::move(*e));
  }
  ReadOptions(r, context, &s);
  // The regions the open question names (written since this field was added; an older point's question names none).
  const json* named = doc.is_object() && doc.contains("question_regions") ? r.Array("question_regions", kMaxList) : nullptr;
  for (size_t i = 0; named && i < named->size() && r.ok(); ++i) {
    const json& v = (*named)[i];
    if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() >= regions)
      r.Fail(r.Place("question_regions") + "[" + std::to_string(i) + "]: expected a region from 0 to " + std::to_string(regions - 1));
    else
      s.question_regions.push_back(v.get<int>());
  }
  if (!r.ok()) return engine::Result<SessionState>::Error(r.error);
  return s;
}

}  // namespace swref::core
