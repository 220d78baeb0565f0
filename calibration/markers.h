// ArUco markers: OpenCV's predefined dictionaries by name (the names the layout and the CLI use, e.g.
// "DICT_4X4_50"), custom dictionaries from an OpenCV dictionary file, and detection. Used by the ChArUco camera
// calibration and by board registration (the 4 printed markers at the board corners).
#pragma once

#include <array>
#include <string>
#include <vector>

#include <opencv2/aruco.hpp>
#include <opencv2/core.hpp>

#include "engine/result.h"

namespace swref::calibration {

using Dictionary = cv::Ptr<cv::aruco::Dictionary>;

struct Marker {
  int id = -1;
  std::array<cv::Point2f, 4> corners;  // image px, clockwise from the marker's own top-left corner
};

// One of OpenCV's predefined dictionaries: "DICT_4X4_50" .. "DICT_7X7_1000", "DICT_ARUCO_ORIGINAL",
// "DICT_APRILTAG_16h5" .. "DICT_APRILTAG_36h11". An unknown name is an error that lists the known ones.
engine::Result<Dictionary> DictionaryByName(const std::string& name);

// A custom dictionary in OpenCV's file format (nmarkers, markersize, marker_0 .. as bit strings, optional
// maxCorrectionBits), e.g. the tutorial's tutorial_dict.yml. Errors name the file and the missing field.
engine::Result<Dictionary> ReadDictionaryFile(const std::string& path);

// A name starting with "DICT_" is looked up, anything else is read as a dictionary file.
engine::Result<Dictionary> LoadDictionary(const std::string& name_or_path);

// Every marker of `dictionary` in `image` (grey or BGR), with OpenCV's default detector parameters and no corner
// refinement: on OpenCV's tutorial photos this reproduces OpenCV's own expected corners within 1 px, whereas
// sub-pixel refinement pulls the corners of small markers off by up to 5.7 px (measured, tests/calibration).
std::vector<Marker> DetectMarkers(const cv::Mat& image, const Dictionary& dictionary);

}  // namespace swref::calibration
