// The token model's file (tokens/model.json) and the enrollment crop folder: the outside input of enrollment
// (calibration/token_model.h), read with the limits of docs/architecture.md ("Limits").
#include <algorithm>
#include <cmath>
#include <filesystem>


#include "calibration/image_io.h"
#include "calibration/token_model.h"
#include "calibration/token_model_internal.h"

namespace swref::calibration {
namespace {

using token_model_internal::kPpm;

std::string Hex(const cv::Mat& mask) {  // a binary mask row by row, '0'/'1'
  std::string s;
  for (int y = 0; y < mask.rows; ++y)
    for (int x = 0; x < mask.cols; ++x) s += mask.at<uchar>(y, x) ? '1' : '0';
  return s;
}

}  // namespace

nlohmann::json TokenModel::ToJson() const {
  nlohmann::json doc;
  doc["format"] = kTokenModelFormat;
  doc["polar"] = {{"rings", kRings}, {"angles", kAngles}, {"radius_mm", PolarSpec{}.radius_mm}, {"px_per_mm", kPpm}};
  doc["kinds"] = nlohmann::json::array();
  for (const KindTemplate& t : kinds_) {
    doc["kinds"].push_back({{"kind", t.kind},
                            {"size_mm", t.size_mm},
                            {"photos", t.photos},
                            {"typical_error", t.typical_error},
                            {"mean", t.mean},
                            {"weight", t.weight},
                            {"footprint", {{"side", t.footprint.cols}, {"bits", Hex(t.footprint)}}}});
  }
  return doc;
}

namespace {

// The number at `key` of `obj`, finite and within lo..hi, or false.
bool ReadNumber(const nlohmann::json& obj, const char* key, double lo, double hi, double* out) {
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_number()) return false;
  *out = it->get<double>();
  return *out >= lo && *out <= hi;  // false for NaN too
}

bool ReadSamples(const nlohmann::json& obj, const char* key, std::vector<float>* out) {
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_array() || it->size() != static_cast<size_t>(kPolarSize)) return false;
  out->reserve(kPolarSize);
  for (const nlohmann::json& v : *it) {
    if (!v.is_number()) return false;
    const double x = v.get<double>();
    if (!std::isfinite(x) || std::abs(x) > 1e30) return false;  // a float holds it
    out->push_back(static_cast<float>(x));
  }
  return true;
}

}  // namespace

engine::Result<TokenModel> TokenModel::FromJson(const nlohmann::json& doc, const std::string& where) {
  using R = engine::Result<TokenModel>;
  if (!doc.is_object() || !doc.contains("format") || doc["format"] != kTokenModelFormat) {
    return R::Error(where + ".format: expected \"" + kTokenModelFormat + "\" (enroll the tokens again with this version)");
  }
  double rings = 0, angles = 0, ppm = 0;
  auto polar = doc.find("polar");
  if (polar == doc.end() || !polar->is_object() || !ReadNumber(*polar, "rings", kRings, kRings, &rings) ||
      !ReadNumber(*polar, "angles", kAngles, kAngles, &angles) || !ReadNumber(*polar, "px_per_mm", kPpm, kPpm, &ppm)) {
    return R::Error(where + ".polar: made with another sampling grid; enroll the tokens again");
  }
  auto kinds = doc.find("kinds");
  if (kinds == doc.end() || !kinds->is_array() || kinds->empty()) return R::Error(where + ".kinds: expected a non-empty array");
  if (kinds->size() > kMaxKinds) return R::Error(where + ".kinds: more than " + std::to_string(kMaxKinds) + " kinds");
  TokenModel m;
  for (size_t i = 0; i < kinds->size(); ++i) {
    const std::string at = where + ".kinds[" + std::to_string(i) + "]";
    const nlohmann::json& k = (*kinds)[i];
    if (!k.is_object()) return R::Error(at + ": expected an object");
    KindTemplate t;
    if (!k.contains("kind") || !k["kind"].is_string() || k["kind"].get<std::string>().empty()) return R::Error(at + ".kind: expected a token kind");
    t.kind = k["kind"].get<std::string>();
    double photos = 0;
    if (!ReadNumber(k, "size_mm", 1.0001, 199.9999, &t.size_mm) || !ReadNumber(k, "typical_error", 1e-9, 1e9, &t.typical_error) ||
        !ReadNumber(k, "photos", 0, 1e6, &photos) || photos != std::floor(photos)) {
      return R::Error(at + ": size_mm, typical_error or photos missing or out of range");
    }
    t.photos = static_cast<int>(photos);
    if (!ReadSamples(k, "mean", &t.mean) || !ReadSamples(k, "weight", &t.weight)) {
      return R::Error(at + ".mean: expected " + std::to_string(kPolarSize) + " samples in mean and weight");
    }
    for (float w : t.weight)
      if (!(w >= 0)) return R::Error(at + ".weight: expected finite weights >= 0");
    auto fp = k.find("footprint");
    double side = 0;
    if (fp == k.end() || !fp->is_object() || !ReadNumber(*fp, "side", 3, 1001, &side) || side != std::floor(side) ||
        static_cast<int>(side) % 2 == 0 || !fp->contains("bits") || !(*fp)["bits"].is_string() ||
        (*fp)["bits"].get_ref<const std::string&>().size() != static_cast<size_t>(side * side)) {
      return R::Error(at + ".footprint: expected an odd side and side*side bits");
    }
    const std::string& bits = (*fp)["bits"].get_ref<const std::string&>();
    const int n = static_cast<int>(side);
    t.footprint = cv::Mat(n, n, CV_8U);
    for (int j = 0; j < n * n; ++j) t.footprint.data[j] = bits[j] == '1' ? 255 : 0;
    m.kinds_.push_back(std::move(t));
  }
  m.Derive();
  return m;
}

engine::Result<std::vector<EnrollPatch>> ReadCropFolder(const std::string& dir, const std::vector<std::string>& known_kinds,
                                                        double board_px_per_mm) {
  namespace fs = std::filesystem;
  using R = engine::Result<std::vector<EnrollPatch>>;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return R::Error(dir + ": not a folder (expected DIR/<token kind>/*.png)");
  std::vector<fs::path> folders;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_directory() && folders.size() < kMaxKinds + 1) folders.push_back(e.path());
  if (folders.size() > kMaxKinds) return R::Error(dir + ": more than " + std::to_string(kMaxKinds) + " kind folders (the limit)");
  std::sort(folders.begin(), folders.end());
  std::vector<EnrollPatch> out;
  size_t crops = 0, pixels = 0;
  for (const fs::path& folder : folders) {
    const std::string kind = folder.filename().string();
    if (!known_kinds.empty() && std::find(known_kinds.begin(), known_kinds.end(), kind) == known_kinds.end()) {
      return R::Error(folder.string() + ": '" + kind + "' is not a token kind (a race id, race id + _decline, lost_tribe or a piece id)");
    }
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(folder, ec)) {
      if (files.size() > kMaxCrops) return R::Error(dir + ": more than " + std::to_string(kMaxCrops) + " crops (the limit)");
      std::string ext = e.path().extension().string();
      std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
      if (e.is_regular_file() && (ext == ".png" || ext == ".jpg" || ext == ".jpeg")) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) return R::Error(folder.string() + ": no .png or .jpg crops in it");
    std::vector<EnrollPatch> kind_patches;
    std::vector<double> sizes;
    for (const fs::path& f : files) {
      EnrollPatch p;
      p.kind = kind;
      p.where = f.string();
      if (++crops > kMaxCrops) return R::Error(dir + ": more than " + std::to_string(kMaxCrops) + " crops (the limit)");
      auto image = ReadImageFile(f.string(), ImageRead::kColor, kMaxCropSide);
      if (!image) return R::Error(image.error());
      p.bgr = std::move(*image);
      pixels += p.bgr.total();
      if (pixels > kMaxCropPixels) {
        return R::Error(dir + ": the crops hold more than " + std::to_string(kMaxCropPixels / 1000000) + " megapixels in all (the limit)");
      }
      if (p.bgr.cols < 16 || p.bgr.rows < 16) {
        return R::Error(f.string() + ": the crop is too small (" + std::to_string(p.bgr.cols) + "x" + std::to_string(p.bgr.rows) + "; at least 16x16)");
      }
      sizes.push_back(2.0 / 3.0 * std::min(p.bgr.cols, p.bgr.rows) / board_px_per_mm);
      kind_patches.push_back(std::move(p));
    }
    // The crop convention (the token spans 2/3 of the side) gives each crop's own scale once the kind's size is
    // known; the size is the median over its crops at the board's scale.
    std::nth_element(sizes.begin(), sizes.begin() + sizes.size() / 2, sizes.end());
    const double size_mm = sizes[sizes.size() / 2];
    for (EnrollPatch& p : kind_patches) {
      p.px_per_mm = 2.0 / 3.0 * std::min(p.bgr.cols, p.bgr.rows) / size_mm;
      out.push_back(std::move(p));
    }
  }
  if (out.empty()) return R::Error(dir + ": no kind folders (expected DIR/<token kind>/*.png)");
  return out;
}

}  // namespace swref::calibration
