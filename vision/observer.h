// The observer: from one camera frame to an Observation of every region (docs/architecture.md, pipeline steps
// 1-4). It knows token kinds, not rules. One stage a file:
//   register.cpp    where the board is in the frame (corner markers, else features matched to the reference
//                   photo), and the maps that take the board's pixels out of the (distorted) frame
//   rectify.cpp     the frame in board coordinates, its light matched to the empty-board reference
//   foreground.cpp  what lies on the board: the difference from the empty board, shadows and glare kept apart
//   gate.cpp        arms over the board: status "motion", nothing else reported
//   instances.cpp   the foreground explained token by token: every token's kind, rotation and centre (the
//                   enrolled templates, calibration/token_model.h), overlapping tokens one under the other
//   stacks.cpp      tokens that stand taller than one: a neat stack's count cannot be seen from above
//   count.cpp       every region's race, side, count (certain or a lower bound), pieces and lost tribe
// Each stage times itself and may hand its intermediate image to a debug sink (`swref observe --debug-dir`).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/board_setup.h"
#include "calibration/image_io.h"
#include "calibration/token_model.h"
#include "engine/map.h"
#include "engine/result.h"
#include "vision/observation.h"

namespace swref::vision {

// Receives a stage's intermediate image (name like "2-foreground") for debugging.
using DebugSink = std::function<void(const std::string& name, const cv::Mat& image)>;

inline constexpr int kMaxImageSide = calibration::kMaxImageSide;  // larger frames are refused as bad_image (docs: Limits)

struct ObserverOptions {
  double foreground_threshold = 14;  // colour difference (Lab, after light matching) that counts as foreground
  double motion_area_mm2 = 25000;    // a foreground piece larger than this is an arm (a forearm is ~80 x 300 mm)
  double min_confidence = kUncertainBelow;  // below this a token's kind is uncertain (its region is reported uncertain)
  double max_error = 120;            // Lab^2 (weighted mean): a match worse than this is no token of any enrolled
                                     // kind (something else, or too hidden to tell)
  double min_board_ratio = 2;        // a token must fit what is seen this many times better than the empty board
  double max_fit = 20;               // ... and fit its kind no worse than this many times the kind's typical error
  bool incremental = false;          // a frame from the same pose as the last still frame observed names tokens again
                                     // only where it changed since (frames of one game from a fixed camera)
  int full_every = 12;               // ... but every full_every-th still frame in a row is observed in full (a resumed
                                     // referee replays at most this many frames; docs/vision.md measures what it costs)
};

// One token seen on the board, in board millimetres.
struct Instance {
  cv::Point2d centre_mm;
  double rotation_rad = 0;           // the kind's template turned by this
  int region = -1;
  std::string kind;
  double confidence = 0;
  double fit = 0;                    // error / the kind's typical error (1: as clean as its enrollment photos)
  double error = 0;                  // the match's error, Lab^2 (calibration::TokenMatch::error)
  std::string runner_up;             // the next kind, and its error (for finding out why a token was named so)
  double runner_up_error = 0;
  double board_error = 0;            // the same for "nothing lies here" (the empty board at the same spot)
  double visible = 1;                // share of its template's weight not hidden by tokens above it
  int stack = 1;                     // > 1: looks like a neat stack of at least this many
  bool stack_unsure = false;         // may be a stack: its count cannot be trusted
  double shadow_mm = 0;              // its shadow beyond it: darkening (L*) x mm (stacks.cpp; race tokens)
  double shadow_ratio = 0;           // ... against the frame's typical single token
  double wall_mm = 0;                // how wide its cut wall shows towards the point below the camera
  double wall_expected_mm = 0;       // ... for a single token there
};

// A match that no other kind and not the empty board come near, however badly it fits its own kind (instances.cpp
// kDistinctError): such a piece is that piece even partly hidden.
bool DistinctMatch(double error, double board_error, double runner_up_error);

// A race token that may be a stack, where it lay (KeepStackDoubts, step 6b).
struct PossibleStack {
  std::string kind;
  cv::Point2d centre_mm;
};
inline constexpr double kSameSpotMm = 2.0;

// The empty board's side of the comparison, made once (FindForeground, step 3): its Lab at 1 px/mm, and its L*'s
// mean and variance over the texture test's windows.
struct ForegroundReference {
  cv::Mat lab;                       // CV_32FC3
  cv::Mat lightness, mean, variance; // CV_32F
};

// Step 5's shortcut (changes.cpp): incremental observation. A still frame from the same pose as the last still
// frame names its tokens again only where it changed since; elsewhere the last still frame's tokens stand.
// What the stack judgement (JudgeStacks) measured around one race token: kept for the next frame, where a token
// lying where it lay with nothing changed within its measure's reach is not measured again.
struct StackMeasure {
  bool measured = false;                      // a race token's (else nothing below)
  std::vector<std::vector<double>> profiles;  // per direction: the darkening beyond its edge
  std::vector<double> clear;                  // ... the share of its rays no other token blocked
  bool wall = false;                          // the wall was measured (the camera's place known)
  double wall_mm = 0, wall_expected_mm = 0;
};
struct StillScene {
  cv::Mat half_lab;                  // Rectified::half_lab of the last still frame
  std::vector<Instance> instances;   // its tokens as FindInstances gave them (before the stack judgement)
  std::vector<StackMeasure> stacks;  // ... and what JudgeStacks measured around each (by instance)
  cv::Mat unexplained;               // its unexplained foreground (FindInstances)
};
struct Focus {
  cv::Mat where;                     // CV_8U board pixels: seeds are named only here
  std::vector<Instance> kept;        // the last still frame's tokens that no change reaches, taken as they were
  std::vector<size_t> kept_from;     // ... their indices in StillScene::instances
  cv::Mat kept_unexplained;          // its unexplained foreground outside `where` (may be empty)
  double changed_share = 0;          // of the board
};
struct StageTimes {
  double decode = 0, register_ = 0, rectify = 0, foreground = 0, gate = 0, instances = 0, count = 0, total = 0;
  double changed_share = -1;         // incremental observation: the share of the board that changed; -1: in full
  int tokens_kept = 0;               // ... the last still frame's tokens taken as they were
};

// The board's pose in one frame and the maps that sample the board's pixels from it.
struct FramePose {
  calibration::BoardPose pose;       // image_from_board in undistorted frame pixels
  cv::Mat map1, map2;                // board pixel -> frame pixel (lens distortion included), for cv::remap
  cv::Mat ring1, ring2;              // the same for the table around the board (gate.cpp)
  cv::Mat ring_valid;                // where the ring is in view (gate.cpp; made with ring1)
};

// The cheap check that the board has not moved since its pose was found (pipeline step 1): small patches of the
// frame around the corner markers (or, without markers, the board's corners), kept from the frame the pose came
// from, are compared with the same places of each new frame by phase correlation. A shift of kMovedPx or more
// anywhere, or a patch that no longer correlates (a hand over it, a new light), means the pose must be found
// again. Costs well under a millisecond a frame.
class PoseCheck {
 public:
  static constexpr double kMovedPx = 0.35;
  void Reset(const cv::Mat& frame_bgr, const std::vector<cv::Point2d>& anchors_px);
  void Clear() { patches_.clear(); }
  bool empty() const { return patches_.empty(); }
  // True when every patch is where it was; `moved_px` (optional) gets the largest shift found.
  bool Unchanged(const cv::Mat& frame_bgr, double* moved_px = nullptr) const;

 private:
  struct Patch {
    cv::Rect at;
    cv::Mat grey;                    // CV_32F
  };
  std::vector<Patch> patches_;
  cv::Mat window_;                   // Hanning window
};

class Observer {
 public:
  // From a setup folder with an enrolled token model (SETUP/tokens/model.json).
  static engine::Result<Observer> Load(const std::string& setup_dir, const ObserverOptions& options = {});
  Observer(calibration::BoardSetup setup, std::shared_ptr<const engine::Map> map, calibration::TokenModel model,
           cv::Mat reference, const ObserverOptions& options);

  // One frame. Never throws for a bad frame: it is reported as status bad_image (or no_board) with a reason.
  Observation Observe(const cv::Mat& frame, const std::string& name);
  // Reads the file first (a truncated or unreadable file is bad_image).
  Observation ObserveFile(const std::string& path, const std::string& name);

  void SetDebugSink(DebugSink sink) { debug_ = std::move(sink); }
  // Frames from a calibrated camera: the lens is undone in the maps (the setup's reference already is undistorted).
  void SetCamera(const cv::Matx33d& K, const std::vector<double>& dist, cv::Size image_size);
  const std::vector<Instance>& last_instances() const { return instances_; }
  const StageTimes& last_times() const { return times_; }
  const std::string& last_reason() const { return reason_; }
  const calibration::BoardPose& last_pose() const { return frame_pose_.pose; }
  int registrations() const { return registrations_; }
  const engine::Map& map() const { return *map_; }
  const calibration::TokenModel& model() const { return model_; }
  // Forget the pose: the next frame is registered in full (and observed in full).
  void ForgetPose() { pose_check_.Clear(), still_scene_.reset(); }
  // Forget the last still frame: the next frame is observed in full, not only where it changed.
  void ForgetScene() { still_scene_.reset(); }
  // Incremental observation: whether the last frame's tokens were named in full (a resumed referee rebuilds the scene
  // by observing again the frames from the last one observed in full: ForgetScene, then each in order).
  bool last_in_full() const { return times_.changed_share < 0; }
  // ... and the regions whose pixels changed since that still frame (RegionsChanged), whether this one was observed
  // incrementally or in full; empty when there was none to compare with (the first frame, a new pose, full mode).
  // A region can change and read the same (a token hidden under a piece that moved): the referee asks again about
  // a region the players corrected when it changed (referee_session.cpp).
  const std::vector<int>& changed_regions() const { return changed_regions_; }
  // The per-frame check alone (pipeline step 1's cheap part): true when the pose found before still holds for
  // this frame (8-bit BGR); false when the board must be found again (or was never found).
  bool PoseUnchanged(const cv::Mat& frame) const { return pose_check_.Unchanged(frame); }
  // Whether a pose is held (the next frame is first checked against it), and putting one back: as if `frame` had
  // just been registered with `pose` (a resumed referee, referee_session.h). An error when `frame` is unusable.
  bool holds_pose() const { return !pose_check_.empty(); }
  std::string RestorePose(const calibration::BoardPose& pose, const cv::Mat& frame);
  // The race tokens the last still frame left as possible stacks (KeepStackDoubts), and putting them back (a resumed
  // referee, after RestorePose, which forgets them): a resumed game reads its frames as the uninterrupted one.
  const std::vector<PossibleStack>& possible_stacks() const { return possible_stacks_; }
  void RestorePossibleStacks(std::vector<PossibleStack> stacks) { possible_stacks_ = std::move(stacks); }

 private:
  std::vector<cv::Point2d> CheckAnchors() const;  // where PoseCheck looks, in frame pixels
  calibration::BoardSetup setup_;
  std::shared_ptr<const engine::Map> map_;
  calibration::TokenModel model_;
  ObserverOptions options_;
  cv::Mat reference_board_;          // the empty board in board coordinates (CV_8UC3)
  cv::Mat reference_lab_;            // ... in Lab, float, smoothed as frames are
  ForegroundReference reference_foreground_;  // ... as the foreground is judged against it
  cv::Mat reference_small_;          // ... as float BGR at 1/16, for the light matching
  cv::Mat reference_cells_;          // ... at 2 mm cells, for finding glare
  cv::Mat reference_half_lab_;       // ... at 1 px/mm in Lab, for the tokens' outlines
  cv::Mat marker_stickers_;          // MarkerStickers: no outline votes there
  cv::Mat reference_glare_;          // ... its own glare (ReferenceGlare)
  cv::Mat region_labels_;            // region id per board pixel (CV_32S)
  cv::Mat ring_reference_;           // the table around the board in the reference photo (gate.cpp)
  cv::Mat ring_valid_;
  std::shared_ptr<const calibration::FeatureRegistration> features_;  // boards without markers
  DebugSink debug_;
  cv::Matx33d K_ = cv::Matx33d::eye();
  std::string NotTheCameraSize(cv::Size frame) const;  // the reason a frame of another size is refused
  std::vector<double> dist_;         // empty without a calibrated camera
  cv::Size camera_size_;
  FramePose frame_pose_;
  std::vector<PossibleStack> possible_stacks_;  // the last still frame's (KeepStackDoubts); forgotten when the board is found anew
  PoseCheck pose_check_;
  int registrations_ = 0;            // full registrations so far (the cheap check said the board moved)
  std::vector<Instance> instances_;
  std::optional<StillScene> still_scene_;  // the last still frame observed (incremental observation)
  int scene_run_ = 0;                // still frames observed incrementally since the last one in full
  std::vector<int> changed_regions_;  // since the last still frame (changed_regions())
  StageTimes times_;
  std::string reason_;
};

// --- the stages, for the observer and for their tests -------------------------------------------------------

// Step 0: a decoded frame as 8-bit BGR in `frame` (3 channels as they are, grey and BGRA converted), or why it
// cannot be used: too small (< 64 px a side), too large (> kMaxImageSide), not 8 bits, 2 channels, one flat colour.
std::string PrepareFrame(const cv::Mat& input, cv::Mat* frame);

// The 8-connected components of a CV_8U mask (cv::connectedComponentsWithStats): labels CV_32S, stats, centroids;
// returns their number with the background. By Grana's block-based algorithm: the same labels as OpenCV's default
// on a suite photo, 2.7 times as fast on a board's foreground mask (2.0 against 5.5 ms, 1200x800, OpenCV 4.6, one
// thread).
int Components(const cv::Mat& mask, cv::Mat& labels, cv::Mat& stats, cv::Mat& centroids);
// The connected components (8-connected) of a CV_8U mask for which `keep(area_px)` holds, as a new mask. From the
// mask's runs, without a label image: on a board's mostly clear masks 2-5 times as fast as labelling them.
cv::Mat KeepComponents(const cv::Mat& mask, const std::function<bool(int area_px)>& keep);

inline constexpr double kBoardPxPerMm = calibration::kMatchPxPerMm;  // the board image the stages work on

// Step 1: the board's pose in this frame: the corner markers when the layout has them (their corners undistorted
// with the camera's lens when `dist` is not empty), else `features` (the reference photo's features; the frame
// must then be undistorted already), else the board's outline.
engine::Result<calibration::BoardPose> RegisterFrame(const cv::Mat& frame, const calibration::Layout& layout,
                                                     const calibration::FeatureRegistration* features = nullptr,
                                                     const cv::Matx33d& K = cv::Matx33d::eye(), const std::vector<double>& dist = {});
// Maps for cv::remap: pixel (u, v) of an image of `size` is board point board_from_pixel * (u, v, 1), seen in the
// frame through image_from_board and the lens (when `dist` is not empty).
void MakeMaps(const cv::Matx33d& image_from_board, const cv::Matx33d& board_from_pixel, cv::Size size, const cv::Matx33d& K,
              const std::vector<double>& dist, cv::Mat* map1, cv::Mat* map2);
// Where a board point (mm) lies in the (distorted) frame.
cv::Point2d ProjectToFrame(const cv::Matx33d& image_from_board, const cv::Matx33d& K, const std::vector<double>& dist, cv::Point2d board_mm);
// The remap maps for a pose: board pixel centres (kBoardPxPerMm) -> frame pixels, through the lens when `dist`
// is given.
void MakeBoardMaps(FramePose& fp, cv::Size2d board_mm, const cv::Matx33d& K, const std::vector<double>& dist);

// Step 5's second source of seeds (outline_votes.cpp): token centres voted for by the edges the frame has and the
// empty board has not, `radius_mm` out along their normals. Board pixels (kBoardPxPerMm), strongest first.
struct OutlineSeed {
  cv::Point2d centre_px;
  float votes = 0;
};
// The Lab images it works on: a board image (kBoardPxPerMm) at half its resolution, in calibration::MatchLab's Lab.
cv::Mat OutlineLab(const cv::Mat& board_bgr);
// `votes_image` (optional): the votes (CV_32F, 1 px/mm), for debugging.
std::vector<OutlineSeed> OutlineSeeds(const cv::Mat& frame_half_lab, const cv::Mat& reference_half_lab, double radius_mm,
                                      const cv::Mat& exclude = cv::Mat(), cv::Mat* votes_image = nullptr);
inline constexpr double kOutlineRadiusMm = 12.0;  // a race token's or lost tribe's half width (25 mm tokens)
inline constexpr float kMinOutlineVotes = 12;     // weaker outline peaks are texture lining up by chance
// The larger pieces' (a fortress, a troll lair, a mountain: 28-31 mm) half width. Voted for at the race tokens' radius,
// their outlines peak 3-4 mm off the centre (beyond an outline seed's 2 mm search), and a grey piece on grey ground (a fortress on the
// mountains' print) makes no foreground either: no seed lay on it. A second vote at this radius gives such pieces
// seeds (instances.cpp names them after the others). On the seven accuracy suites: region errors 25 / 30 / 33 / 40 /
// 77 / 58 / 53 -> 25 / 25 / 31 / 38 / 66 / 52 / 48, wrong and not flagged 0 / 0 / 0 / 1 / 9 / 7 / 3 -> 0 / 1 / 0 / 1 / 4
// / 5 / 3, regions flagged 2,761 -> 2,668. At 14.5 mm: 281 errors in all against 285, but 18 wrong and not flagged
// against 14; at 16 mm 291 and 14; at 13 mm worse on the two suites tried. Chosen on all seven. Most of the gain is in
// crowds (a seed on a half-hidden token's centre), and it costs time: `swref bench vision` full observation 104 ->
// 144 ms (one core), after a move 50 -> 58 ms. Piece seeds skipped within 6 or 10 mm of a candidate, or at most 12 or 30
// fitted a frame: the fifth suite 71, 73, 74, 69 errors against 66 (the second 29, 30, 27, 26 against 25).
inline constexpr double kPieceOutlineRadiusMm = 15.0;

// Step 2: the frame in board coordinates with its light matched to the reference: a smooth per-channel gain
// field, fitted on the pixels that look like the empty board.
struct Rectified {
  cv::Mat bgr;                       // CV_8UC3, board coordinates, as the camera saw it
  cv::Mat matched;                   // CV_8UC3, ... its light matched to the reference's
  cv::Mat half_lab;                  // CV_32FC3, `matched` at half resolution in Lab (ForegroundLab)
  cv::Mat glare;                     // CV_8U, 255 = glare: light added on top of the board (taken off `matched`)
  cv::Mat ceiling;                   // CV_32FC3 over light cells: the brightest value the camera could record there,
                                     // in `matched` units (calibration::MatchContext::ceiling)
  double light_change = 0;           // how far the global gains were from 1 (log scale)
  std::vector<OutlineSeed> outline_seeds;  // tokens' outlines (found before the glare was judged, and again where it was)
  std::vector<OutlineSeed> piece_seeds;    // ... and larger pieces' outlines (kPieceOutlineRadiusMm)
  cv::Mat outline_votes;             // CV_32F at 1 px/mm: the votes they came from (debug images)
  cv::Mat gain;                      // CV_32FC3 over light cells: frame = gain x reference (the lamp, vignetting)
  cv::Mat glare_added;               // CV_32FC3 over light cells: the glare taken off, in the frame's own units
  cv::Vec3f glare_colour{0.577f, 0.577f, 0.577f};  // the colour glare adds (unit length, BGR)
};
// The whole board's light at a board pixel: the gain field, and the glare (along glare_colour) in frame units.
cv::Vec3f GainAt(const Rectified& frame, cv::Point2d board_px);
float GlareAt(const Rectified& frame, cv::Point2d board_px);

// The frame around one token in the reference's light, measured on the ring of board around it (local_light.cpp).
struct LocalView {
  cv::Mat lab;                       // CV_32FC3 (calibration::MatchLab) over `box`
  cv::Rect box;                      // in board pixels
  cv::Point origin;                  // box.tl()
  bool fitted = false;               // the ring gave the light (else: the whole board's)
  cv::Vec3f gain{1, 1, 1};
  float glare = 0;                   // along Rectified::glare_colour, frame units
  cv::Vec3f ceiling{255, 255, 255};  // the brightest value the camera could record there, in reference light
  cv::Vec3f clip{255, 255, 255};     // ... in the reference photo's own light (its glare not taken off)
  mutable calibration::CappedTemplates capped;  // the templates capped under `ceiling`, made as they are needed
};
// `occupied` (optional, CV_8U board pixels): ring pixels to leave out (other tokens). `reference_glare`
// (optional, ReferenceGlare): the reference photo's own glare, taken off the token too.
LocalView MakeLocalView(const Rectified& frame, const cv::Mat& reference_bgr, const cv::Mat& reference_glare, const cv::Mat& occupied,
                        cv::Point2d centre_px);
// The glare lying on the empty-board reference photo itself (reference_glare.cpp): CV_32F over 4 mm cells, 8-bit
// units along (1, 1, 1) / sqrt(3). `region_labels`: RasterizeLayout at kBoardPxPerMm.
cv::Mat ReferenceGlare(const cv::Mat& reference_board, const cv::Mat& region_labels);
// A cell field (CV_32F over the board) at a board pixel, bilinear.
float FieldValueAt(const cv::Mat& field, cv::Size board_px, cv::Point2d at_px);
// `reference_small` (LightReference) and `reference_cells` (GlareCells): the empty board, made once.
// `reference_half_lab`: OutlineLab of the empty board, for the outline seeds; `outline_exclude` (optional, CV_8U
// board pixels, MarkerStickers): where edges cast no outline votes. `reference_bgr` (optional, the empty board in
// board pixels): where the camera clipped some of a pixel's channels and the others agree with the board, `matched`
// (and so `half_lab`) takes the reference's value in the clipped ones when it is brighter (what was clipped may be
// the board itself).
Rectified Rectify(const cv::Mat& frame, const FramePose& pose, const cv::Mat& reference_small, const cv::Mat& reference_cells,
                  const cv::Mat& reference_half_lab, const cv::Mat& outline_exclude = cv::Mat(), const cv::Mat& reference_bgr = cv::Mat());
// The corner markers' printed stickers (the black square and its white frame, calibration::MarkerFrameMm) and 2 mm
// more, in board pixels (CV_8U, 255 on a sticker; empty without markers). High-contrast print whose edges a light
// change makes differ from the reference's: a bright photo's light matching leaves the sticker's white a little
// darker than the reference's, and every edge of the pattern then voted for token outlines.
cv::Mat MarkerStickers(const calibration::Layout& layout, cv::Size board_px);
// Rectified::ceiling at a board pixel.
cv::Vec3f CeilingAt(const Rectified& frame, cv::Point2d board_px);
// Glare in a light-matched board image (float BGR 0..255) against the empty board (its GlareCells): large smooth
// patches that gained light of one colour in every channel (or as much as the camera could record: `saturated`,
// SaturatedCells of the board image before matching, says where it saturated). With `corrected`, the image with
// that light taken off; `taken` (optional): the light taken off, float BGR.
inline constexpr int kGlareCellPx = 4;   // glare is judged on cells of this many board pixels (2 mm)
inline constexpr uchar kClippedAt = 250;  // a channel the camera recorded this bright may have been cut off by it
cv::Mat GlareCells(const cv::Mat& reference_board);
// The share of each glare cell's pixels where the camera saturated a channel (CV_32FC3, per channel).
cv::Mat SaturatedCells(const cv::Mat& raw, cv::Size cells);
// `objects` (optional, CV_8U at the glare cells' size): cells where something lies (a token's outline was seen);
// they neither make nor shape a patch of glare, which is fitted around them.
cv::Mat FindGlare(const cv::Mat& matched, const cv::Mat& reference_cells, const cv::Mat& saturated, cv::Mat* corrected, cv::Mat* taken = nullptr,
                  const cv::Mat& objects = cv::Mat());
// The reference's side of the light matching: the empty board at 1/16 scale, float BGR.
cv::Mat LightReference(const cv::Mat& reference_board);

// Step 3: foreground (tokens, arms) against the reference: colour difference, with shadows (darker, same
// chroma) and glare (brighter, washed out) kept out; glare is returned separately.
struct Foreground {
  cv::Mat mask;                      // CV_8U, 255 = something lies here
  cv::Mat half_mask;                 // the same at half resolution, as found (`mask` is it brought to the board's
                                     // size: doubled when the board's size is even); may be empty
  cv::Mat glare;                     // CV_8U, 255 = glare on the board (Rectified::glare; not foreground)
  cv::Mat blind;                     // CV_8U, 255 = saturated white: nothing can be seen there
  cv::Mat washed;                    // CV_8U, 255 = glare so strong the frame is nearly white (may be empty)
  std::vector<cv::Point2d> specks;   // board px: clear differences too small to be foreground, apart from it
};
// The board image at half its resolution (1 px/mm) in calibration::MatchLab's Lab, smoothed about as much as the
// full-resolution image is for the matcher: what the foreground is judged on.
cv::Mat ForegroundLab(const cv::Mat& board_bgr);
ForegroundReference MakeForegroundReference(const cv::Mat& reference_board_bgr);
Foreground FindForeground(const Rectified& frame, const ForegroundReference& reference, double threshold);

// Step 4: arms over the board. The table around the board (a ring of 40 mm at 1 px/mm) against the reference
// photo's: something big there that changed and reaches the board's edge is an arm; so is a foreground piece
// far too big to be tokens, or one running along the board's edge where the table outside changed too.
struct EdgeRing {
  cv::Mat bgr;                       // CV_8UC3, the ring in board coordinates (only its four strips are warped)
  cv::Mat valid;                     // CV_8U, 255 where the ring was in view (and is outside the board's cut edge)
};
// The ring's maps are made once per pose (kept in `pose`).
EdgeRing WarpEdgeRing(const cv::Mat& image, FramePose& pose, cv::Size2d board_mm, const cv::Matx33d& K,
                      const std::vector<double>& dist);
struct TableWatch {
  bool watched = false;              // enough of the table was in view to judge
  bool arm = false;                  // something big crosses from the table to the board's edge
  cv::Mat change;                    // CV_8U, ring coordinates: what changed on the table
};
TableWatch WatchTable(const EdgeRing& frame, const EdgeRing& reference, cv::Vec3f glare_colour);
bool IsMotion(const Foreground& fg, double max_area_mm2, const TableWatch& table, std::string* why);

// CV_8U at half_lab's size (1 px/mm): where the board changed between two light-matched frames.
cv::Mat ChangedSince(const cv::Mat& half_lab, const cv::Mat& before_half_lab);
// Where to name tokens again (`changed_half`: ChangedSince against `before`), or nothing when the frame must be
// observed in full (too much of the board changed). `board_px`: the board image's size (kBoardPxPerMm).
std::optional<Focus> FocusOnChanges(const cv::Mat& changed_half, const StillScene& before, const calibration::TokenModel& model,
                                    cv::Size board_px);
// Pixels of `mask` (CV_8U, region_labels' size) per region; `region_labels`: region id per board pixel (CV_32S).
std::vector<int> PixelsPerRegion(const cv::Mat& mask, const cv::Mat& region_labels, int regions);
// The share of the board within `radius_mm` of `centre_mm` that `mask` (board pixels) covers (0 when it is empty).
double ShareNear(const cv::Mat& mask, cv::Point2d centre_mm, double radius_mm);
// Whether a token kind is a race's (either side): "ratmen", "ratmen_decline"; not "fortress" or "lost_tribe".
bool IsRace(const std::string& kind);
// The regions (ids, ascending) with at least kRegionChangedMm2 of `changed_half` (ChangedSince) in them;
// `region_labels`: region id per board pixel (CV_32S, kBoardPxPerMm).
inline constexpr int kRegionChangedMm2 = 50;
std::vector<int> RegionsChanged(const cv::Mat& changed_half, const cv::Mat& region_labels, int regions);
// For JudgeStacks, by instance of `instances` (FindInstances with `focus`: its kept tokens first): the last still
// frame's measure of each kept token that neither the focus nor a token named this frame comes within its reach
// of; the others are left to be measured.
std::vector<StackMeasure> KeptStackMeasures(const Focus& focus, const StillScene& before, const std::vector<Instance>& instances,
                                            const calibration::TokenModel& model, cv::Size board_px);

// Step 5: the foreground explained as tokens (instances.cpp).
// `reference_lab`: the empty board (as Rectified::lab), for judging "a token" against "nothing" at each spot.
// `reference_bgr`: the empty board (board pixels), for each token's own light (local_light.cpp).
// `unexplained` (optional): the foreground no token explains (pieces of 120 mm² or more), and what candidates that
// fitted no kind (ObserverOptions::max_fit) covered; count.cpp makes a region holding enough of it uncertain.
// `focus` (optional, FocusOnChanges): its kept tokens are taken first as they are, and seeds are named only within
// its `where`.
std::vector<Instance> FindInstances(const Rectified& frame, const Foreground& fg, const cv::Mat& reference_bgr, const cv::Mat& reference_glare,
                                    const cv::Mat& reference_lab, const calibration::TokenModel& model, const cv::Mat& region_labels,
                                    const ObserverOptions& options, cv::Mat* unexplained = nullptr, const Focus* focus = nullptr);
// A kind's footprint placed at an instance: CV_8U mask in board pixels (kBoardPxPerMm) painted into `canvas`;
// returns the box it may cover.
cv::Rect PaintFootprint(const calibration::KindTemplate& kind, cv::Point2d centre_mm, double rotation_rad, cv::Mat& canvas);
// That box alone, without painting (a footprint turned any way lies within it).
cv::Rect FootprintBox(const calibration::KindTemplate& kind, cv::Point2d centre_mm, cv::Size canvas);

// Step 6: stacks (stacks.cpp): tokens whose shadow or side wall says they stand taller than one token. `camera`:
// the camera's centre over the board (board mm) and its height (mm); z <= 0 when unknown.
// `measures` (optional): what was measured around each instance, given for those whose measure may be reused (a
// `measured` one, from the last still frame: the token lies where it lay and nothing changed within its reach),
// returned for all.
void JudgeStacks(std::vector<Instance>& instances, const Rectified& frame, const Foreground& fg, const cv::Mat& reference_half_lab,
                 const calibration::TokenModel& model, const cv::Point3d& camera, std::vector<StackMeasure>* measures = nullptr);
// How far beyond a token's footprint JudgeStacks looks (mm).
inline constexpr double kStackReachMm = 12;
// Step 6b: doubts kept (stacks.cpp). A race token judged possibly a stack in the last still frame stays so while it
// lies where it lay (the same kind, its centre within kSameSpotMm): the height cue only ever confirms a single
// token, and whether it can depends on the frame (how many tokens show their shadow, the light), not on the token.
// Returns this frame's possible stacks, for the next frame.
std::vector<PossibleStack> KeepStackDoubts(std::vector<Instance>& instances, const std::vector<PossibleStack>& before);
// Where the camera is over the board, from a pose (undistorted pixels) and the camera matrix; without a
// calibrated camera (K empty) the focal length is estimated from the pose, the principal point at the centre of
// a frame of `frame_size`.
cv::Point3d CameraOverBoard(const cv::Matx33d& image_from_board, const cv::Matx33d* K, cv::Size frame_size);

// What the frame shows besides the tokens, for the count (board pixels, CV_8U, 255 = yes; each may be empty).
struct FrameDoubts {
  cv::Mat blind;        // glare saturated the camera (Foreground::blind)
  cv::Mat glare;        // glare on the board (Foreground::glare)
  cv::Mat unexplained;  // foreground no token explains
  cv::Mat washed;       // glare washed the frame out nearly white (Foreground::washed; may be empty)
};

// Step 7: every region (count.cpp). A region holding a token's worth of blind, washed-out or unexplained pixels is
// uncertain;
// so is one where a piece that fits badly was named partly hidden in glare (`region_labels`: may be empty when
// `doubts` is).
Observation CountRegions(const std::vector<Instance>& instances, const engine::Map& map, const cv::Mat& region_labels,
                         const FrameDoubts& doubts, double min_confidence);

}  // namespace swref::vision
