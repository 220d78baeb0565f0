// Setting up a table before a game (`swref setup board`, `swref enroll`): the board's setup folder, then the
// token model of the players' own tokens inside it. The GUI's setup wizard calls the same functions.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "calibration/token_model.h"
#include "calibration/board_setup.h"
#include "engine/result.h"

namespace swref::core {

engine::Result<calibration::BoardSetup> SetupBoard(const calibration::SetupRequest& request);

struct EnrollReport {
  int samples = 0;
  std::vector<calibration::KindQuality> kinds;                  // leave-one-out quality per kind
  std::vector<std::pair<std::string, std::string>> look_alikes;  // pairs to check by eye
  std::vector<std::string> missing_kinds;                        // token kinds with no sample (the observer will not name them)
  std::string model_path;                                        // SETUP/tokens/model.json
};

// The report's advice on the kinds whose photos' footprint lay off the crops' centre (KindQuality::off_centre_mm):
// "Off-centre, check their photos (...): " and each kind as `name(kind)` with its distance, joined by `separator`;
// empty when there are none. The CLI and the GUI both show it.
std::string OffCentreAdvice(const EnrollReport& report, const std::function<std::string(const std::string&)>& name,
                            const std::string& separator);

// The report's advice on the kinds whose outline measured far from their other side's, whose other side's size stood
// in (KindQuality::outline_from_other_side): as OffCentreAdvice, each with its share; empty when none.
std::string OtherSideAdvice(const EnrollReport& report, const std::function<std::string(const std::string&)>& name,
                            const std::string& separator);

// Enrolls from a folder of crops DIR/<kind>/*.png into SETUP/tokens/. The setup folder must exist.
engine::Result<EnrollReport> EnrollFromCrops(const std::string& setup_dir, const std::string& crops_dir);

// Enrolls from photos of the enrollment mat (`swref print mat`): `front` photos with every token's active side up,
// `flipped` ones with the race tokens turned over. Every cell must hold its token; an empty cell is named. When the
// setup has the table camera's calibration, a photo of that camera's size is undistorted first (a photo of another
// size, from a phone, is read as it is).
engine::Result<EnrollReport> EnrollFromMat(const std::string& setup_dir, const std::vector<std::string>& front,
                                           const std::vector<std::string>& flipped, const std::string& paper);

// Every token kind (a race id, race_decline, lost_tribe, a piece id), in the order of engine/components.h.
std::vector<std::string> TokenKinds();

}  // namespace swref::core
