// Incremental observation (vision/changes.cpp): a still frame from the same pose as the last still frame names its
// tokens again only where the board changed; it must read every region as a full observation of it does.
#include <gtest/gtest.h>

#include <algorithm>

#include "datasets/dataset.h"
#include "datasets/eval.h"
#include "engine/observed.h"
#include "tests/vision/rig.h"
#include "vision/observer.h"

namespace swref::vision {
namespace {

using test::BoardsOfAGame;
using test::MakeRig;
using test::Rig;

ObserverOptions Incremental() {
  ObserverOptions o;
  o.incremental = true;
  return o;
}

// A fixed camera over the table, a little noise and JPEG, as a webcam gives.
datasets::CameraShot TableCamera(const Rig& rig) {
  datasets::CameraShot shot = datasets::OverheadShot({1920, 1080}, rig.table->layout.board_mm, 0.85);
  shot.sensor.noise_sigma = 2;
  shot.sensor.jpeg_quality = 90;
  return shot;
}

// What a region reads as, its confidence aside (a token kept from the last still frame keeps its confidence; named
// again, the same token's differs in its last digits) and whether it is flagged. A count read incrementally as a
// lower bound that the full reading confirms reads the same: a token judged possibly a stack stays so while it lies
// where it lay (KeepStackDoubts, test Observer.APossibleStackStaysSoWhileItLiesWhereItLay), the full reading judges it
// afresh.
bool SameReading(const RegionObservation& incremental, const RegionObservation& full) {
  const bool a_unsure = incremental.confidence < kUncertainBelow, b_unsure = full.confidence < kUncertainBelow;
  const bool kept_doubt = !incremental.tokens_certain && full.tokens_certain;
  return incremental.race == full.race && incremental.decline == full.decline && incremental.tokens == full.tokens &&
         (incremental.tokens_certain == full.tokens_certain || kept_doubt) && incremental.pieces == full.pieces &&
         incremental.lost_tribe == full.lost_tribe && a_unsure == b_unsure;
}

// The boards of a random game after each of its actions, photographed in turn by one camera as a referee sees
// them (each token stays where it lay until a move takes it), observed incrementally and each also in full.
TEST(IncrementalObservation, AMoveIsNamedAgainOnlyWhereTheBoardChangedAndReadsAsInFull) {
  Rig rig = MakeRig(8, Incremental());
  Observer full = *rig.observer;
  const std::vector<engine::Board> boards = BoardsOfAGame(rig.table->map, 31, 1, 0);
  datasets::CameraShot shot = TableCamera(rig);
  datasets::SceneOptions so;
  so.seed = 3;  // per region: the regions a move leaves alone keep their tokens where they lay
  so.overlap_rate = 0.2;
  cv::RNG flicker(7);
  int observed = 0, regions = 0, differ = 0, kept = 0, tokens = 0, wrong_incremental = 0, wrong_full = 0;
  for (size_t i = 0; i < boards.size() && i < 24; ++i) {
    shot.light.ev = flicker.uniform(-0.03, 0.03);  // auto-exposure: no two frames are the same
    datasets::Scene scene;
    const cv::Mat frame = datasets::RenderScene(*rig.table, boards[i], so, shot, &scene);
    const std::string name = "move " + std::to_string(i);
    scene.truth.image = name;
    const Observation seen = rig.observer->Observe(frame, name);
    const StageTimes times = rig.observer->last_times();
    // Every region the move changed changed in pixels too (the referee asks again about a corrected one).
    const std::vector<int>& changed = rig.observer->changed_regions();
    if (i > 0) {
      const engine::ObservedBoard now = engine::ObserveBoard(boards[i]), before = engine::ObserveBoard(boards[i - 1]);
      size_t moved = 0;
      for (int r = 0; r < now.size(); ++r) {
        if (now.regions[r] == before.regions[r]) continue;
        ++moved;
        EXPECT_TRUE(std::binary_search(changed.begin(), changed.end(), r)) << name << ": region " << r << " changed unseen";
      }
      // ... and few others: a token's shadow or edge reaching over a border.
      EXPECT_LE(changed.size(), moved + 4) << name << ": " << moved << " regions changed";
    }
    full.ForgetScene();
    const Observation whole = full.Observe(frame, name);
    ASSERT_EQ(seen.status, Status::kOk) << name << ": " << rig.observer->last_reason();
    ASSERT_EQ(whole.status, Status::kOk) << name;
    if (i % Incremental().full_every == 0) {
      EXPECT_EQ(times.changed_share, -1) << name << ": the first frame, and every full_every-th in a row, is observed in full";
      continue;
    }
    ++observed;
    EXPECT_GE(times.changed_share, 0) << name;
    EXPECT_LT(times.changed_share, 0.1) << name << ": a move changes a small part of the board";
    kept += times.tokens_kept;
    tokens += static_cast<int>(rig.observer->last_instances().size());
    const datasets::EvalReport inc = datasets::Evaluate({scene.truth}, {seen});
    const datasets::EvalReport all = datasets::Evaluate({scene.truth}, {whole});
    wrong_incremental += inc.region_errors;
    wrong_full += all.region_errors;
    for (size_t r = 0; r < seen.regions.size(); ++r) {
      ++regions;
      if (!SameReading(seen.regions[r], whole.regions[r])) {
        ++differ;
        std::printf("%s, region %zu: %s %d tokens%s (%.2f) incrementally, %s %d%s (%.2f) in full\n", name.c_str(), r,
                    seen.regions[r].race.value_or("-").c_str(), seen.regions[r].tokens, seen.regions[r].tokens_certain ? "" : "+",
                    seen.regions[r].confidence, whole.regions[r].race.value_or("-").c_str(), whole.regions[r].tokens,
                    whole.regions[r].tokens_certain ? "" : "+", whole.regions[r].confidence);
      }
    }
  }
  std::printf("%d frames after a move: %d of %d tokens kept as they were; %d of %d regions read otherwise than in full; wrong "
              "regions %d incrementally, %d in full\n",
              observed, kept, tokens, differ, regions, wrong_incremental, wrong_full);
  EXPECT_GT(kept, tokens / 2) << "most tokens lie where no move reached";
  EXPECT_LE(differ, regions / 100);
  EXPECT_LE(wrong_incremental, wrong_full + 1);
}

// The same board again (the players thinking): nothing is named again, and it reads exactly as before.
TEST(IncrementalObservation, AStillBoardKeepsEveryToken) {
  Rig rig = MakeRig(8, Incremental());
  const std::vector<engine::Board> boards = BoardsOfAGame(rig.table->map, 31, 20, 19);
  ASSERT_FALSE(boards.empty());
  datasets::CameraShot shot = TableCamera(rig);
  datasets::SceneOptions so;
  so.seed = 3;
  const Observation first = rig.observer->Observe(datasets::RenderScene(*rig.table, boards[0], so, shot), "before");
  ASSERT_EQ(first.status, Status::kOk) << rig.observer->last_reason();
  const size_t tokens = rig.observer->last_instances().size();
  shot.light.ev = 0.03;
  const Observation again = rig.observer->Observe(datasets::RenderScene(*rig.table, boards[0], so, shot), "again");
  ASSERT_EQ(again.status, Status::kOk) << rig.observer->last_reason();
  EXPECT_LT(rig.observer->last_times().changed_share, 0.002);
  EXPECT_TRUE(rig.observer->changed_regions().empty());
  EXPECT_EQ(rig.observer->last_times().tokens_kept, static_cast<int>(tokens));
  for (size_t r = 0; r < first.regions.size(); ++r) EXPECT_EQ(again.regions[r], first.regions[r]) << "region " << r;
}

// A board bumped on the table is found anew, and observed in full: nothing of the last frame is kept.
TEST(IncrementalObservation, ABumpedBoardIsObservedInFull) {
  Rig rig = MakeRig(8, Incremental());
  const engine::Board board = datasets::SetupBoard(*rig.table->map);
  datasets::CameraShot shot = TableCamera(rig);
  datasets::SceneOptions so;
  ASSERT_EQ(rig.observer->Observe(datasets::RenderScene(*rig.table, board, so, shot), "before").status, Status::kOk);
  const int registrations = rig.observer->registrations();
  shot.bump.shift_mm = {4, -3};
  shot.bump.rotation_deg = 0.8;
  ASSERT_EQ(rig.observer->Observe(datasets::RenderScene(*rig.table, board, so, shot), "bumped").status, Status::kOk);
  EXPECT_EQ(rig.observer->registrations(), registrations + 1);
  EXPECT_EQ(rig.observer->last_times().changed_share, -1);
  EXPECT_EQ(rig.observer->last_times().tokens_kept, 0);
}

}  // namespace
}  // namespace swref::vision
