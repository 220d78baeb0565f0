#include "app/gui/session_worker.h"

#include <filesystem>

#include "app/core/demo.h"
#include "app/gui/qt_util.h"

namespace swref::gui {
namespace {

constexpr int kScreenWidth = 1600;  // frames wider than this are scaled down for the screen

const char* StillText(vision::StillWindow::State s) {
  switch (s) {
    case vision::StillWindow::State::kMoving:
      return "moving";
    case vision::StillWindow::State::kSettling:
      return "settling";
    case vision::StillWindow::State::kStable:
      return "still";
  }
  return "";
}

bool Has(const std::vector<core::Notice>& notices, core::NoticeKind kind) {
  for (const core::Notice& n : notices)
    if (n.kind == kind) return true;
  return false;
}

}  // namespace

SessionWorker::SessionWorker(QObject* parent) : QObject(parent) {}
SessionWorker::~SessionWorker() = default;

void SessionWorker::Post(std::function<void()> call) { QMetaObject::invokeMethod(this, std::move(call), Qt::QueuedConnection); }

void SessionWorker::Reset() {
  if (timer_) timer_->stop();
  stepper_.reset();
  session_.reset();
  source_.reset();
  overlay_.reset();
  table_.reset();
  image_ = QImage();
  frame_ = core::Frame();
  running_ = ended_ = false;
  highlight_.clear();
  banner_.clear();
  result_ = nullptr;
  summary_.reset();
  last_options_ = nlohmann::json::array();
}

void SessionWorker::Start(const GameStart& start) {
  Reset();
  start_ = start;
  if (!timer_) {
    timer_ = new QTimer(this);  // created here, on the worker's thread
    timer_->setInterval(150);
    connect(timer_, &QTimer::timeout, this, &SessionWorker::Step);
  }
  auto fail = [this](const std::string& error) {
    Reset();
    emit Failed(Q(error));
  };
  std::string setup = start.setup;
  engine::Record header = start.header;
  std::vector<core::TableEvent> events;
  engine::Result<std::unique_ptr<core::FrameSource>> source = engine::Result<std::unique_ptr<core::FrameSource>>::Error("no frame source");
  if (start.source == GameStart::Source::kDemo) {
    auto script = core::RunDemo(start.seed);
    if (!script) return fail(script.error());
    const cv::Size size(start.frame_width, start.frame_height);
    auto table = core::OpenDemoTable(start.demo_dir, start.seed, size);
    if (!table) {
      // Not prepared yet (or for another size): the demo's own folder is made again.
      std::error_code ec;
      std::filesystem::remove_all(start.demo_dir, ec);
      table = core::PrepareDemoTable(
          script->record, start.demo_dir, start.seed, size,
          [this](const std::string& stage, int64_t done, int64_t total) { emit Progress(Q(stage), done, total); }, start.cancel.get());
      if (!table) return fail(table.error() == core::kDemoCancelled ? "The demo table's preparation was stopped." : table.error());
    }
    table_ = std::move(*table);
    setup = table_->setup;
    header = script->record;
    events = table_->events;
    source = core::OpenImageFolder(table_->frames);
  } else {
    if (start.source == GameStart::Source::kImages)
      source = core::OpenImageFolder(start.path);
    else
      source = core::OpenVideo(start.path, start.source == GameStart::Source::kCamera);
    if (!start.events.empty()) {
      auto told = core::ReadEventsFile(start.events);
      if (!told) return fail(told.error());
      events = std::move(*told);
    }
  }
  if (!source) return fail(source.error());
  source_ = std::move(*source);
  core::RefereeOptions options;
  options.setup = setup;
  options.record = start.record;
  options.resume = start.resume;
  auto session = core::RefereeSession::Start(options, header);
  if (!session) return fail(session.error());
  session_ = std::move(*session);
  stepper_ = std::make_unique<core::RefereeStepper>(*session_, *source_, std::move(events));
  if (start.resume && start.source != GameStart::Source::kCamera) stepper_->SkipTo(session_->journal().LastObservedFrame());
  if (auto overlay = core::OverlayMaker::Load(setup)) overlay_ = std::move(*overlay);
  Publish({});
  if (start.source == GameStart::Source::kDemo) SetRunning(true);
}

void SessionWorker::SetRunning(bool running) {
  running_ = running && session_ && !ended_;
  if (timer_) running_ ? timer_->start() : timer_->stop();
  Publish({});
}

void SessionWorker::SetInterval(int ms) {
  if (timer_) timer_->setInterval(std::max(0, ms));
}

void SessionWorker::SetAutopilot(bool on) {
  autopilot_ = on;
  Publish({});
}

void SessionWorker::SetPauseOnAlert(bool on) { pause_on_alert_ = on; }

bool SessionWorker::Answered(std::vector<core::Notice>* notices) {
  if (!table_ || !session_) return false;
  bool any = false;
  for (int round = 0; round < 3 && session_->open_question() >= 0; ++round) {  // as `swref demo`'s players do
    const auto answer = table_->Answer(*session_, stepper_->last_frame());
    if (!answer) break;
    for (core::Notice& n : session_->OnEvent(*answer)) notices->push_back(std::move(n));
    any = true;
  }
  return any;
}

void SessionWorker::Step() {
  if (!session_ || ended_) return;
  std::vector<core::Notice> notices;
  const bool read = stepper_->ReadFrame(&notices, &frame_);
  if (autopilot_) Answered(&notices);  // the demo's players answer before the events after the frame are told
  stepper_->TellEvents(&notices);
  if (read && !frame_.image.empty()) {
    const double scale = frame_.image.cols > kScreenWidth ? static_cast<double>(kScreenWidth) / frame_.image.cols : 1.0;
    QImage image = ToImage(frame_.image);
    image_ = scale < 1 ? image.scaledToWidth(kScreenWidth, Qt::SmoothTransformation) : image;
    scale_ = scale;
  }
  // A lost camera: the frame carries the problem while the source retries; a good frame clears the banner.
  if (read) {
    const bool camera = start_.source == GameStart::Source::kCamera;
    banner_ = !frame_.image.empty() ? ""
              : camera              ? "Camera lost: " + frame_.problem + " (reconnecting...)"
                                    : "Frame unreadable: " + frame_.problem;
  }
  if (!read) {
    ended_ = true;
    banner_ = start_.source == GameStart::Source::kCamera ? "The camera is gone: it gave no frame after every retry." : "";
  }
  if (autopilot_) Answered(&notices);
  const bool alert = Has(notices, core::NoticeKind::kFlag) || (Has(notices, core::NoticeKind::kQuestion) && session_->open_question() >= 0);
  if (ended_ || (alert && pause_on_alert_) || session_->game().finished()) {
    running_ = false;
    if (timer_) timer_->stop();
  }
  Publish(std::move(notices));
}

void SessionWorker::Tell(const nlohmann::json& body) {
  if (!session_) return emit Failed("No game is being refereed: start the demo or a new game first.");
  nlohmann::json event = body;
  event["after_frame"] = stepper_->last_frame();
  auto parsed = core::ParseTableEvent(event, "the players");
  if (!parsed) return emit Failed(Q(parsed.error()));
  Publish(session_->OnEvent(*parsed));
}

void SessionWorker::AnswerAsTable() {
  std::vector<core::Notice> notices;
  if (!Answered(&notices)) return emit Failed("The demo's players see nothing to correct: answer the question yourself.");
  Publish(std::move(notices));
}

void SessionWorker::Close(const std::string& note) {
  if (session_) Publish(session_->Stop(note));
  Reset();
}

void SessionWorker::Detach() {
  Reset();
  Publish({});
}

void SessionWorker::Track(const std::vector<core::Notice>& notices) {
  for (const core::Notice& n : notices) {
    switch (n.kind) {
      case core::NoticeKind::kFlag:
        highlight_ = {n.data.value("region", -1)};
        break;
      case core::NoticeKind::kQuestion:
        highlight_ = n.data.value("regions", std::vector<int>{});
        break;
      case core::NoticeKind::kStopped:
        banner_ = n.text;
        break;
      case core::NoticeKind::kEnded:
        result_ = n.data;
        break;
      default:
        break;
    }
  }
  if (session_->open_flag() < 0 && session_->open_question() < 0) highlight_.clear();
}

void SessionWorker::Publish(std::vector<core::Notice> notices) {
  auto s = std::make_shared<Snapshot>();
  if (session_) {
    Track(notices);
    s->game = std::make_shared<const engine::Game>(session_->game());
    s->players = session_->players();
    s->open_flag = session_->open_flag();
    s->open_question = session_->open_question();
    s->open_text = session_->open_text();
    s->still = StillText(session_->still_state());
    s->record = session_->journal().path().string();
    if (overlay_) s->overlay = overlay_->Make(session_->observer());
    // The record's turns and coins, from the record on disk, whenever a turn was tallied (and at the start).
    if (!summary_ || Has(notices, core::NoticeKind::kCoins) || Has(notices, core::NoticeKind::kEnded)) {
      if (auto summary = core::SummariseRecord(s->record)) summary_ = std::make_shared<const core::GameSummary>(std::move(*summary));
    }
  }
  for (const core::Notice& n : notices)
    if (n.kind == core::NoticeKind::kQuestion) s->options = n.data.value("options", nlohmann::json::array());
  if (s->open_question < 0)
    s->options = nlohmann::json::array();
  else if (s->options.empty())
    s->options = last_options_;
  last_options_ = s->options;
  s->frame = image_;
  s->scale = scale_;
  s->notices = std::move(notices);
  s->highlight = highlight_;
  s->frame_index = stepper_ ? stepper_->last_frame() : -1;
  s->frame_count = source_ ? source_->count() : -1;
  s->banner = banner_;
  s->running = running_;
  s->ended = ended_ || (session_ && session_->game().finished());
  s->demo = table_.has_value();
  s->autopilot = autopilot_;
  s->source = start_.source == GameStart::Source::kDemo ? "the demo table" : start_.path;
  s->summary = summary_;
  s->result = result_;
  emit Updated(s);
}

}  // namespace swref::gui
