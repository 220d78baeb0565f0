#include "calibration/markers.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <utility>

#include "engine/json_input.h"

namespace swref::calibration {
namespace {

using DictionaryResult = engine::Result<Dictionary>;

constexpr std::pair<const char*, cv::aruco::PREDEFINED_DICTIONARY_NAME> kPredefined[] = {
    {"DICT_4X4_50", cv::aruco::DICT_4X4_50},
    {"DICT_4X4_100", cv::aruco::DICT_4X4_100},
    {"DICT_4X4_250", cv::aruco::DICT_4X4_250},
    {"DICT_4X4_1000", cv::aruco::DICT_4X4_1000},
    {"DICT_5X5_50", cv::aruco::DICT_5X5_50},
    {"DICT_5X5_100", cv::aruco::DICT_5X5_100},
    {"DICT_5X5_250", cv::aruco::DICT_5X5_250},
    {"DICT_5X5_1000", cv::aruco::DICT_5X5_1000},
    {"DICT_6X6_50", cv::aruco::DICT_6X6_50},
    {"DICT_6X6_100", cv::aruco::DICT_6X6_100},
    {"DICT_6X6_250", cv::aruco::DICT_6X6_250},
    {"DICT_6X6_1000", cv::aruco::DICT_6X6_1000},
    {"DICT_7X7_50", cv::aruco::DICT_7X7_50},
    {"DICT_7X7_100", cv::aruco::DICT_7X7_100},
    {"DICT_7X7_250", cv::aruco::DICT_7X7_250},
    {"DICT_7X7_1000", cv::aruco::DICT_7X7_1000},
    {"DICT_ARUCO_ORIGINAL", cv::aruco::DICT_ARUCO_ORIGINAL},
    {"DICT_APRILTAG_16h5", cv::aruco::DICT_APRILTAG_16h5},
    {"DICT_APRILTAG_25h9", cv::aruco::DICT_APRILTAG_25h9},
    {"DICT_APRILTAG_36h10", cv::aruco::DICT_APRILTAG_36h10},
    {"DICT_APRILTAG_36h11", cv::aruco::DICT_APRILTAG_36h11},
};

}  // namespace

DictionaryResult DictionaryByName(const std::string& name) {
  for (const auto& [known, id] : kPredefined)
    if (name == known) return cv::aruco::getPredefinedDictionary(id);
  return DictionaryResult::Error(
      "unknown ArUco dictionary \"" + name +
      "\" (known: DICT_4X4_50 .. DICT_7X7_1000 in sizes 50, 100, 250, 1000, "
      "DICT_ARUCO_ORIGINAL, DICT_APRILTAG_16h5, DICT_APRILTAG_25h9, DICT_APRILTAG_36h10, DICT_APRILTAG_36h11)");
}

DictionaryResult ReadDictionaryFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return DictionaryResult::Error(engine::CannotOpen(path, "dictionary file"));
  cv::FileStorage fs;
  try {
    if (!fs.open(path, cv::FileStorage::READ)) {
      // A file that is there and yet not opened: not readable, or in no format OpenCV reads.
      const bool readable = static_cast<bool>(std::ifstream(path));
      return DictionaryResult::Error(readable ? path + ": not an OpenCV YAML/XML/JSON file"
                                              : engine::CannotOpen(path, "dictionary file"));
    }
  } catch (const cv::Exception& e) {
    const bool empty = std::filesystem::file_size(path, ec) == 0 && !ec;
    return DictionaryResult::Error(path + ": not an OpenCV YAML/XML/JSON file (" + (empty ? std::string("it is empty") : e.err) + ")");
  }
  const cv::FileNode root = fs.root();
  // readDictionary() only says yes or no: check the fields first so that the error can name the one at fault.
  const cv::FileNode count = root["nmarkers"], size = root["markersize"];
  if (!count.isInt() || static_cast<int>(count) <= 0) return DictionaryResult::Error(path + ".nmarkers: expected a positive integer");
  if (!size.isInt() || static_cast<int>(size) < 2)
    return DictionaryResult::Error(path + ".markersize: expected an integer >= 2 (bits per side)");
  const int bits = static_cast<int>(size) * static_cast<int>(size);
  for (int i = 0; i < static_cast<int>(count); ++i) {
    const std::string key = "marker_" + std::to_string(i);
    const cv::FileNode m = root[key];
    if (!m.isString() || static_cast<int>(m.string().size()) != bits ||
        m.string().find_first_not_of("01") != std::string::npos)
      return DictionaryResult::Error(path + "." + key + ": expected a string of " + std::to_string(bits) + " bits (0 or 1)");
  }
  const cv::FileNode correction = root["maxCorrectionBits"];
  if (!correction.empty() && (!correction.isInt() || static_cast<int>(correction) < 0))
    return DictionaryResult::Error(path + ".maxCorrectionBits: expected an integer >= 0");
  // Without maxCorrectionBits OpenCV corrects no bit at all, as its tutorial does with this kind of file.
  Dictionary dictionary = cv::makePtr<cv::aruco::Dictionary>();
  if (!dictionary->readDictionary(root)) return DictionaryResult::Error(path + ": OpenCV could not read the dictionary");
  return dictionary;
}

DictionaryResult LoadDictionary(const std::string& name_or_path) {
  if (name_or_path.rfind("DICT_", 0) == 0) return DictionaryByName(name_or_path);
  return ReadDictionaryFile(name_or_path);
}

std::vector<Marker> DetectMarkers(const cv::Mat& image, const Dictionary& dictionary) {
  std::vector<std::vector<cv::Point2f>> corners;
  std::vector<int> ids;
  cv::aruco::detectMarkers(image, dictionary, corners, ids, cv::aruco::DetectorParameters::create());
  std::vector<Marker> markers(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    markers[i].id = ids[i];
    std::copy(corners[i].begin(), corners[i].end(), markers[i].corners.begin());
  }
  return markers;
}

}  // namespace swref::calibration
