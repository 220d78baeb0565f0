// The referee session's state in a resume point (resume_point.h): what SaveState keeps, how RestoreState checks
// and puts it back, and when a point is written. Everything that decides a later verdict is kept, so that frames
// re-judged after a resume give exactly the entries an uninterrupted run gives: the still window's counts, the
// observer's held pose, the last reading, the committed and corrected boards, the open flag or question with its
// options, the told die and the actions waiting. Frames are kept by index (the still window's last frame, the frame
// the pose was found in) and read again on resume.
#include <cmath>
#include <filesystem>

#include "app/core/referee_session.h"
#include "app/core/resume_point.h"

namespace swref::core {
namespace {

using nlohmann::json;

constexpr size_t kMaxList = 10000;  // corrections, waiting events, options, actions of an option
constexpr size_t kMaxText = 64 << 10;

json BoardJson(const engine::ObservedBoard& board) { return json(engine::ToJson(board)); }
json RegionJson(const engine::ObservedRegion& region) { return BoardJson(engine::ObservedBoard{{region}}); }

json PoseJson(const calibration::BoardPose& pose, int64_t frame) {
  json m = json::array();
  for (int i = 0; i < 9; ++i) m.push_back(pose.image_from_board.val[i]);
  return {{"frame", frame},
          {"mode", static_cast<int>(pose.mode)},
          {"image_from_board", m},
          {"residual_px", pose.residual_px},
          {"markers_found", pose.markers_found}};
}

// A board of `regions` regions (an observation's), or the error (set on `r`).
std::optional<engine::ObservedBoard> ReadBoard(FieldReader& r, const char* key, int regions) {
  const json* v = r.Array(key, 1000);
  if (!v) return std::nullopt;
  auto board = engine::ParseObservedBoard(*v, regions, r.Place(key));
  if (!board) return r.Fail(board.error()), std::nullopt;
  return *board;
}

std::optional<calibration::BoardPose> ReadPose(const json& doc, const std::string& where, int64_t* frame, std::string* error) {
  FieldReader r(doc, where);
  calibration::BoardPose pose;
  int mode = 0;
  r.Int("frame", int64_t{0}, INT64_MAX / 2, frame);
  r.Int("mode", 0, 2, &mode);
  pose.mode = static_cast<calibration::Registration>(mode);
  if (const json* m = r.Array("image_from_board", 9)) {
    if (m->size() != 9) r.Fail(r.Place("image_from_board") + ": expected 9 numbers");
    for (size_t i = 0; i < m->size() && r.ok(); ++i) {
      if (!(*m)[i].is_number() || !std::isfinite((*m)[i].get<double>()))
        r.Fail(r.Place("image_from_board") + ": expected 9 finite numbers");
      else
        pose.image_from_board.val[i] = (*m)[i].get<double>();
    }
  }
  if (r.ok() && doc.contains("residual_px") && doc["residual_px"].is_number()) pose.residual_px = doc["residual_px"].get<double>();
  if (const json* found = r.Array("markers_found", 64)) {
    for (const json& id : *found) {
      if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() > 1000000)
        r.Fail(r.Place("markers_found") + ": expected marker ids");
      else
        pose.markers_found.push_back(id.get<int>());
    }
  }
  *error = r.error;
  if (!r.ok()) return std::nullopt;
  return pose;
}

}  // namespace

json RefereeSession::SaveState() const {
  json corrections = json::array();
  for (const auto& [region, c] : corrections_)
    corrections.push_back({{"region", region}, {"raw", RegionJson(c.raw)}, {"corrected", RegionJson(c.corrected)}});
  json deferred = json::array();
  for (const TableEvent& e : deferred_) {
    json told = e.body;
    told["after_frame"] = e.after_frame;
    deferred.push_back(told);
  }
  json options = json::array();
  for (const engine::Reading& reading : question_options_) {
    json actions = json::array();
    for (const engine::ExplainedAction& a : reading.actions) actions.push_back(engine::ToJson(a.action, players()));
    options.push_back({{"actions", actions}, {"die_used", reading.die_used}});
  }
  const vision::StillWindow::Saved still = still_.saved();
  return {{"last_frame", last_frame_},
          {"frames_seen", frames_seen_},
          {"frames_observed", frames_observed_},
          {"coins_told", coins_told_},
          {"still", {{"frames", still.still_frames}, {"stable", still.stable}, {"state", static_cast<int>(still_state_)}}},
          {"observed_frame", observed_frame_},
          {"still_frame", still_frame_},
          {"pose_frame", pose_frame_},
          {"pose", pose_frame_ >= 0 ? PoseJson(observer_->last_pose(), pose_frame_) : json(nullptr)},
          {"last_raw", last_raw_.size() > 0 ? BoardJson(last_raw_) : json(nullptr)},
          {"last_sha", last_sha_},
          {"last_seen", last_seen_ ? BoardJson(*last_seen_) : json(nullptr)},
          {"committed_seen", BoardJson(committed_seen_)},
          {"corrections", corrections},
          {"die", die_},
          {"open_flag", open_flag_},
          {"open_question", open_question_},
          {"flag_region", flag_region_},
          {"open_text", open_text_},
          {"deferred", deferred},
          {"options", options}};
}

std::string RefereeSession::RestoreState(const json& state, const std::map<int64_t, cv::Mat>& frames, const std::string& where) {
  FieldReader r(state, where);
  auto null = [&](const char* key) { return state.is_object() && state.contains(key) && state[key].is_null(); };
  const int regions = observer_->map().size();
  const int entries = journal_.size();
  int64_t coins_told = 0;
  r.Int("last_frame", int64_t{-1}, INT64_MAX / 2, &last_frame_);
  r.Int("frames_seen", int64_t{0}, INT64_MAX / 2, &frames_seen_);
  r.Int("frames_observed", int64_t{0}, INT64_MAX / 2, &frames_observed_);
  r.Int("coins_told", int64_t{0}, static_cast<int64_t>(game().scores().size()), &coins_told);
  coins_told_ = static_cast<size_t>(coins_told);
  // The still window, with the frame it compares the next one with.
  vision::StillWindow::Saved still;
  int still_state = 0;
  if (const json* s = r.Object("still")) {
    FieldReader sr(*s, r.Place("still"));
    sr.Int("frames", 0, 1 << 30, &still.still_frames);
    sr.Bool("stable", &still.stable);
    sr.Int("state", 0, 2, &still_state);
    if (!sr.ok()) r.Fail(sr.error);
  }
  r.Int("observed_frame", int64_t{-1}, last_frame_, &observed_frame_);
  r.Int("still_frame", int64_t{-1}, last_frame_, &still_frame_);
  r.Int("pose_frame", int64_t{-1}, last_frame_, &pose_frame_);
  auto frame_at = [&](int64_t index) -> const cv::Mat* {
    const auto it = frames.find(index);
    return it == frames.end() || it->second.empty() ? nullptr : &it->second;
  };
  if (r.ok() && still_frame_ >= 0 && !frame_at(still_frame_))
    r.Fail(r.Place("still_frame") + ": frame " + std::to_string(still_frame_) + " could not be read again");
  // The observer's pose, found in pose_frame.
  std::optional<calibration::BoardPose> pose;
  if (r.ok() && pose_frame_ >= 0) {
    int64_t frame = -1;
    std::string error;
    pose = ReadPose(state.contains("pose") ? state["pose"] : json(nullptr), r.Place("pose"), &frame, &error);
    // (a null pose reads as "expected an object")
    if (!pose)
      r.Fail(error);
    else if (frame != pose_frame_)
      r.Fail(r.Place("pose.frame") + ": expected the pose_frame, " + std::to_string(pose_frame_));
    else if (!frame_at(pose_frame_))
      r.Fail(r.Place("pose_frame") + ": frame " + std::to_string(pose_frame_) + " could not be read again");
  }
  // The boards and the reading.
  if (!null("last_raw")) {
    if (auto b = ReadBoard(r, "last_raw", regions)) last_raw_ = *b;
  }
  r.String("last_sha", 64, &last_sha_);
  if (r.ok() && !last_sha_.empty() && !IsSha256Hex(last_sha_)) r.Fail(r.Place("last_sha") + ": expected a SHA-256 (64 hex digits)");
  if (!null("last_seen")) last_seen_ = ReadBoard(r, "last_seen", regions);
  if (auto b = ReadBoard(r, "committed_seen", regions)) committed_seen_ = *b;
  if (const json* list = r.Array("corrections", kMaxList)) {
    for (size_t i = 0; i < list->size() && r.ok(); ++i) {
      FieldReader c((*list)[i], r.Place("corrections") + "[" + std::to_string(i) + "]");
      int region = 0;
      c.Int("region", 0, regions - 1, &region);
      auto raw = ReadBoard(c, "raw", 1), corrected = ReadBoard(c, "corrected", 1);
      if (!c.ok())
        r.Fail(c.error);
      else
        corrections_[region] = {raw->regions[0], corrected->regions[0]};
    }
  }
  // What is open: flags and questions are journal entries of their kind.
  r.Int("die", -1, 3, &die_);
  r.Int("open_flag", -1, entries - 1, &open_flag_);
  r.Int("open_question", -1, entries - 1, &open_question_);
  r.Int("flag_region", -1, regions - 1, &flag_region_);
  r.String("open_text", kMaxText, &open_text_);
  if (r.ok() && open_flag_ >= 0 && journal_.kind(open_flag_) != EntryKind::kFlag)
    r.Fail(r.Place("open_flag") + ": entry " + std::to_string(open_flag_) + " is no flag");
  if (r.ok() && open_question_ >= 0 && journal_.kind(open_question_) != EntryKind::kQuestion)
    r.Fail(r.Place("open_question") + ": entry " + std::to_string(open_question_) + " is no question");
  if (const json* list = r.Array("deferred", kMaxList)) {
    for (size_t i = 0; i < list->size() && r.ok(); ++i) {
      auto e = ParseTableEvent((*list)[i], r.Place("deferred") + "[" + std::to_string(i) + "]");
      if (!e)
        r.Fail(e.error());
      else
        deferred_.push_back(std::move(*e));
    }
  }
  if (const json* list = r.Array("options", kMaxList)) {
    for (size_t i = 0; i < list->size() && r.ok(); ++i) {
      FieldReader o((*list)[i], r.Place("options") + "[" + std::to_string(i) + "]");
      engine::Reading reading;
      o.Bool("die_used", &reading.die_used);
      if (const json* actions = o.Array("actions", kMaxList)) {
        for (size_t k = 0; k < actions->size() && o.ok(); ++k) {
          auto a =
              engine::ParseAction((*actions)[k], players(), o.Place("actions") + "[" + std::to_string(k) + "]", game().solo() != nullptr);
          if (!a)
            o.Fail(a.error());
          else
            reading.actions.push_back({*a, {}});
        }
      }
      if (!o.ok())
        r.Fail(o.error);
      else
        question_options_.push_back(std::move(reading));
    }
  }
  if (!r.ok()) return r.error;
  still_.Restore(still, still_frame_ >= 0 ? *frame_at(still_frame_) : cv::Mat());
  still_state_ = static_cast<vision::StillWindow::State>(still_state);
  if (pose) {
    if (std::string why = observer_->RestorePose(*pose, *frame_at(pose_frame_)); !why.empty()) return r.Place("pose_frame") + ": " + why;
  }
  return "";
}

std::vector<Notice> RefereeSession::SaveResumePoint(int64_t next_frame, int64_t events) {
  std::vector<Notice> out;
  if (!Failure().empty()) return out;
  WritePoint(next_frame, events, &out);
  return out;
}

void RefereeSession::WritePoint(int64_t next_frame, int64_t events, std::vector<Notice>* out) {
  const std::filesystem::path file = ResumePointPath(options_.record);
  if (journal_.closed()) {  // nothing to resume
    std::error_code ec;
    std::filesystem::remove(file, ec);
    return;
  }
  if (journal_.size() == saved_entries_ && frames_observed_ == saved_observed_ && events == saved_events_) return;
  ResumePoint point;
  point.entries = journal_.size();
  point.hash = journal_.head_hash();
  point.next_frame = next_frame;
  point.events = events;
  point.session = SaveState();
  const WriteOutcome written = WriteResumePoint(file, point, options_.journal.write);
  if (!written.ok()) {
    point_failure_ = written.error + " (the resume point)";
    Written(point_failure_, out);
    return;
  }
  saved_entries_ = journal_.size();
  saved_observed_ = frames_observed_;
  saved_events_ = events;
  saved_next_frame_ = next_frame;
}

}  // namespace swref::core
