// Step 7 (count.cpp): regions reported from the instances found in them.
#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "vision/observer.h"

namespace swref::vision {
namespace {

Instance Token(const std::string& kind, int region, double confidence = 1.0) {
  Instance i;
  i.kind = kind;
  i.region = region;
  i.confidence = confidence;
  return i;
}

// `i` as partly seen: `visible` of it in view, fitting `fit` times its kind's typical error.
Instance Seen(Instance i, double visible, double fit) {
  i.visible = visible;
  i.fit = fit;
  return i;
}

class CountRegionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto map = engine::LoadMap("2p", "");
    ASSERT_TRUE(map.ok()) << map.error();
    map_ = *map;
    for (const engine::Region& r : map_->regions) (r.HasMountain() ? mountain_ : plain_) = r.id;
    ASSERT_GE(mountain_, 0);
    ASSERT_GE(plain_, 0);
  }
  Observation Count(const std::vector<Instance>& instances) const {
    return CountRegions(instances, *map_, cv::Mat(), FrameDoubts{}, 0.55);
  }
  std::shared_ptr<const engine::Map> map_;
  int mountain_ = -1, plain_ = -1;
};

// Mountains are immovable: the map reports them, seen or not.
TEST_F(CountRegionsTest, MountainsComeFromTheMap) {
  const Observation seen_none = Count({Token("ratmen", mountain_), Token("ratmen", mountain_)});
  for (const RegionObservation& r : seen_none.regions) {
    EXPECT_EQ(r.pieces.count("mountain") ? r.pieces.at("mountain") : 0, map_->regions[r.id].HasMountain() ? 1 : 0) << "region " << r.id;
  }
  const RegionObservation& held = seen_none.regions[mountain_];
  EXPECT_EQ(held.race, "ratmen");
  EXPECT_EQ(held.tokens, 2);
  EXPECT_TRUE(held.tokens_certain);  // a mountain hidden under tokens is no doubt
  EXPECT_GE(held.confidence, 0.55);

  const Observation seen_once = Count({Token("mountain", mountain_)});
  EXPECT_EQ(seen_once.regions[mountain_].pieces, (std::map<std::string, int>{{"mountain", 1}}));
  EXPECT_GE(seen_once.regions[mountain_].confidence, 0.55);
}

// A mountain seen where the map has none, or a second one, is something misread: the region is uncertain.
TEST_F(CountRegionsTest, AMountainTheMapDoesNotHaveMakesTheRegionUncertain) {
  const Observation o = Count({Token("mountain", plain_), Token("mountain", mountain_), Token("mountain", mountain_)});
  EXPECT_TRUE(o.regions[plain_].pieces.empty());
  EXPECT_LT(o.regions[plain_].confidence, 0.55);
  EXPECT_EQ(o.regions[mountain_].pieces, (std::map<std::string, int>{{"mountain", 1}}));
  EXPECT_LT(o.regions[mountain_].confidence, 0.55);
}

// A token named with next to no confidence is not counted; its region is uncertain, its count a lower bound.
TEST_F(CountRegionsTest, ATokenNamedWithoutConfidenceIsNotCounted) {
  const Observation o = Count({Token("orcs", plain_), Token("orcs", plain_), Token("orcs", plain_, 0.05), Token("sorcerers_decline", mountain_, 0.02)});
  EXPECT_EQ(o.regions[plain_].race, "orcs");
  EXPECT_EQ(o.regions[plain_].tokens, 2);
  EXPECT_FALSE(o.regions[plain_].tokens_certain);
  EXPECT_LT(o.regions[plain_].confidence, 0.55);
  EXPECT_FALSE(o.regions[mountain_].race.has_value());
  EXPECT_EQ(o.regions[mountain_].tokens, 0);
  EXPECT_LT(o.regions[mountain_].confidence, 0.55);
  // Uncertain whatever the threshold of certainty is set to.
  const Observation lax = CountRegions({Token("orcs", plain_), Token("orcs", plain_, 0.05)}, *map_, cv::Mat(), FrameDoubts{}, 0.01);
  EXPECT_EQ(lax.regions[plain_].tokens, 1);
  EXPECT_FALSE(lax.regions[plain_].tokens_certain);
  // Named with little confidence but more than that: counted, and uncertain.
  const Observation low = Count({Token("orcs", plain_, 0.3)});
  EXPECT_EQ(low.regions[plain_].tokens, 1);
  EXPECT_LT(low.regions[plain_].confidence, 0.55);
}

// A race's two sides never share a region: a token named on the other side is one of the race's, its side misread.
// It counts for the race, the side with more tokens (on a tie the one named more surely) wins, and the region is
// uncertain. Another race's token is not counted for the race.
TEST_F(CountRegionsTest, ATokenNamedOnItsRacesOtherSideCountsForTheRace) {
  const Observation o = Count({Token("skeletons", plain_, 0.9), Token("skeletons", plain_, 0.8), Token("skeletons_decline", plain_, 0.95)});
  EXPECT_EQ(o.regions[plain_].race, "skeletons");
  EXPECT_FALSE(o.regions[plain_].decline);
  EXPECT_EQ(o.regions[plain_].tokens, 3);
  EXPECT_FALSE(o.regions[plain_].tokens_certain);
  EXPECT_LT(o.regions[plain_].confidence, 0.55);
  const Observation tie = Count({Token("wizards", plain_, 0.6), Token("wizards_decline", plain_, 0.9)});
  EXPECT_TRUE(tie.regions[plain_].decline);
  EXPECT_EQ(tie.regions[plain_].tokens, 2);
  const Observation races = Count({Token("orcs", plain_), Token("orcs", plain_), Token("elves_decline", plain_)});
  EXPECT_EQ(races.regions[plain_].race, "orcs");
  EXPECT_EQ(races.regions[plain_].tokens, 2);
  EXPECT_LT(races.regions[plain_].confidence, 0.55);
}

// A piece mostly hidden under tokens that fits badly was named from what shows between them: not counted, its
// region uncertain. One in view, or fitting well, is counted; so is a race token however hidden (a pile).
TEST_F(CountRegionsTest, AMostlyHiddenPieceThatFitsBadlyIsNotCounted) {
  auto piece = [&](const std::string& kind, double visible, double fit) { return Seen(Token(kind, plain_), visible, fit); };
  const Observation hidden = Count({Token("trolls", plain_), Token("trolls", plain_), piece("fortress", 0.42, 7.0)});
  EXPECT_TRUE(hidden.regions[plain_].pieces.empty());
  EXPECT_EQ(hidden.regions[plain_].tokens, 2);
  EXPECT_FALSE(hidden.regions[plain_].tokens_certain);
  EXPECT_LT(hidden.regions[plain_].confidence, 0.55);
  for (const Instance& counted : {piece("fortress", 0.9, 7.0), piece("fortress", 0.42, 3.0)}) {
    const Observation o = Count({Token("trolls", plain_), counted});
    EXPECT_EQ(o.regions[plain_].pieces, (std::map<std::string, int>{{"fortress", 1}})) << counted.visible << " " << counted.fit;
    EXPECT_GE(o.regions[plain_].confidence, 0.55);
  }
  const Observation pile = Count({Token("trolls", plain_), piece("trolls", 0.42, 7.0)});
  EXPECT_EQ(pile.regions[plain_].tokens, 2);
}

// A piece partly hidden that fits badly is counted all the same when no other kind and not the empty board come near
// (DistinctMatch): a halflings' hole half under the tokens around it (first suite 5p photo 18, 56 % in view, fitting
// 26 times typical; the board 10 times worse, the next kind twice). Its region stays uncertain. A fortress "seen" on
// the board's printed badge between two tokens is not: the board explains it nearly as well.
TEST_F(CountRegionsTest, APartlyHiddenPieceNothingElseComesNearIsCounted) {
  auto piece = [&](const std::string& kind, double visible, double fit, double error, double board_error, double runner_up_error) {
    Instance i = Seen(Token(kind, plain_), visible, fit);
    i.error = error, i.board_error = board_error, i.runner_up_error = runner_up_error;
    return i;
  };
  const Observation hole = Count({Token("halflings", plain_), piece("hole", 0.56, 26.4, 47.9, 518.0, 95.8)});
  EXPECT_EQ(hole.regions[plain_].pieces, (std::map<std::string, int>{{"hole", 1}}));
  EXPECT_LT(hole.regions[plain_].confidence, 0.55);
  const Observation badge = Count({Token("trolls", plain_), Token("trolls", plain_), piece("fortress", 0.42, 7.0, 19.1, 44.0, 42.6)});
  EXPECT_TRUE(badge.regions[plain_].pieces.empty());
  EXPECT_LT(badge.regions[plain_].confidence, 0.55);
}

// Encampments alone come several to a region: one mostly hidden that fits badly is counted when another is in view
// (the region still uncertain), not when none is, nor when it fits far too badly. A fortress beside a fortress is
// not counted (one to a region).
TEST_F(CountRegionsTest, AMostlyHiddenEncampmentBesideOneInViewIsCounted) {
  auto piece = [&](const std::string& kind, double visible, double fit) { return Seen(Token(kind, plain_), visible, fit); };
  const Observation among = Count({Token("humans", plain_), piece("encampment", 0.95, 2.5), piece("encampment", 0.4, 11.0)});
  EXPECT_EQ(among.regions[plain_].pieces, (std::map<std::string, int>{{"encampment", 2}}));
  EXPECT_LT(among.regions[plain_].confidence, 0.55);
  const Observation alone = Count({Token("humans", plain_), piece("encampment", 0.4, 11.0)});
  EXPECT_TRUE(alone.regions[plain_].pieces.empty());
  EXPECT_LT(alone.regions[plain_].confidence, 0.55);
  const Observation far_off = Count({Token("humans", plain_), piece("encampment", 0.95, 2.5), piece("encampment", 0.4, 20.0)});
  EXPECT_EQ(far_off.regions[plain_].pieces, (std::map<std::string, int>{{"encampment", 1}}));
  const Observation forts = Count({Token("humans", plain_), piece("fortress", 0.95, 2.5), piece("fortress", 0.4, 11.0)});
  EXPECT_EQ(forts.regions[plain_].pieces, (std::map<std::string, int>{{"fortress", 1}}));
  EXPECT_LT(forts.regions[plain_].confidence, 0.55);
}

// A piece partly hidden in glare that fits badly may be glare between the tokens: counted, its region uncertain.
// In view, fitting well, or out of the glare, it is sure.
TEST_F(CountRegionsTest, APartlyHiddenPieceInGlareThatFitsBadlyLeavesItsRegionUncertain) {
  const cv::Point2d at(100, 100);
  cv::Mat glare = cv::Mat::zeros(cvRound(400 * kBoardPxPerMm), cvRound(600 * kBoardPxPerMm), CV_8U);
  cv::circle(glare, at * kBoardPxPerMm, cvRound(20 * kBoardPxPerMm), cv::Scalar(255), cv::FILLED);
  auto count = [&](double visible, double fit, cv::Point2d centre) {
    Instance i = Token("fortress", plain_);
    i.visible = visible, i.fit = fit, i.centre_mm = centre;
    return CountRegions({Token("wizards", plain_), i}, *map_, cv::Mat(), FrameDoubts{cv::Mat(), glare, cv::Mat(), cv::Mat()}, 0.55)
        .regions[plain_];
  };
  const RegionObservation glared = count(0.74, 7.3, at);
  EXPECT_EQ(glared.pieces, (std::map<std::string, int>{{"fortress", 1}}));
  EXPECT_LT(glared.confidence, 0.55);
  EXPECT_GE(count(1.0, 7.3, at).confidence, 0.55);
  EXPECT_GE(count(0.74, 3.0, at).confidence, 0.55);
  EXPECT_GE(count(0.74, 7.3, at + cv::Point2d(100, 0)).confidence, 0.55);
}

// A region glare washed out over a token's worth of it (Foreground::washed) is uncertain, whatever was found in it:
// a pale token there may have been taken in with the glare.
TEST_F(CountRegionsTest, ARegionWashedOutByGlareIsUncertain) {
  const cv::Size board(cvRound(600 * kBoardPxPerMm), cvRound(400 * kBoardPxPerMm));
  const cv::Mat labels(board, CV_32S, cv::Scalar(plain_));
  cv::Mat washed = cv::Mat::zeros(board, CV_8U);
  auto read = [&](double radius_mm) {
    washed.setTo(0);
    cv::circle(washed, cv::Point(200, 200), cvRound(radius_mm * kBoardPxPerMm), cv::Scalar(255), cv::FILLED);
    return CountRegions({}, *map_, labels, FrameDoubts{cv::Mat(), cv::Mat(), cv::Mat(), washed}, 0.55).regions[plain_];
  };
  EXPECT_LT(read(10).confidence, 0.55);  // 314 mm²
  EXPECT_GE(read(5).confidence, 0.55);   // 79 mm²: a speck
}

// Where glare saturated the camera nothing can be seen: a token named there (a grey decline side fits white well) is
// not counted, its region uncertain. Beside such a patch it is counted.
TEST_F(CountRegionsTest, ATokenNamedOnSaturatedWhiteIsNotCounted) {
  const cv::Point2d at(100, 100);
  cv::Mat blind = cv::Mat::zeros(cvRound(400 * kBoardPxPerMm), cvRound(600 * kBoardPxPerMm), CV_8U);
  cv::circle(blind, at * kBoardPxPerMm, cvRound(10 * kBoardPxPerMm), cv::Scalar(255), cv::FILLED);
  auto count = [&](cv::Point2d centre) {
    Instance i = Token("sorcerers_decline", plain_);
    i.centre_mm = centre;
    const cv::Mat no_region(blind.size(), CV_32S, cv::Scalar(-1));  // the blind pixels lie in no region
    return CountRegions({i}, *map_, no_region, FrameDoubts{blind, cv::Mat(), cv::Mat(), cv::Mat()}, 0.55).regions[plain_];
  };
  const RegionObservation on_white = count(at);
  EXPECT_FALSE(on_white.race.has_value());
  EXPECT_EQ(on_white.tokens, 0);
  EXPECT_FALSE(on_white.tokens_certain);
  EXPECT_LT(on_white.confidence, 0.55);
  const RegionObservation beside = count(at + cv::Point2d(25, 0));
  EXPECT_EQ(beside.race, "sorcerers");
  EXPECT_EQ(beside.tokens, 1);
  EXPECT_GE(beside.confidence, 0.55);
}

// A piece partly hidden that fits badly, where the race tokens may be stacked: more may lie hidden, the region is
// uncertain. Beside a single token, or in view, it is sure.
TEST_F(CountRegionsTest, APartlyHiddenPieceBesideAPossibleStackLeavesItsRegionUncertain) {
  auto count = [&](double visible, bool stack) {
    Instance token = Token("humans", plain_);
    token.stack_unsure = stack;
    Instance piece = Token("encampment", plain_);
    piece.visible = visible, piece.fit = 7.3;
    return Count({token, piece}).regions[plain_];
  };
  EXPECT_LT(count(0.87, true).confidence, 0.55);
  EXPECT_EQ(count(0.87, true).pieces, (std::map<std::string, int>{{"encampment", 1}}));
  EXPECT_GE(count(0.87, false).confidence, 0.55);
  EXPECT_GE(count(1.0, true).confidence, 0.55);
}

}  // namespace
}  // namespace swref::vision
