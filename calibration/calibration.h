// calibration: camera intrinsics from chessboard or ChArUco photos, printable targets, the board setup
// (reference image + region layout + registration mode) and token enrollment. Not built yet: the setup
// commands (`swref calibrate`, `swref print`, `swref setup`, `swref enroll`) arrive with issue 4.
#pragma once

namespace swref::calibration {}  // namespace swref::calibration
