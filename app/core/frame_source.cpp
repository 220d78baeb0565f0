#include "app/core/frame_source.h"

#include <algorithm>
#include <filesystem>

#include <thread>

#include "app/core/video_capture.h"
#include "calibration/image_io.h"

namespace swref::core {
namespace fs = std::filesystem;
namespace {

class ImageFolder : public FrameSource {
 public:
  explicit ImageFolder(std::vector<fs::path> files) : files_(std::move(files)) {}
  bool Next(Frame* frame) override {
    if (next_ >= files_.size()) return false;
    const fs::path& f = files_[next_];
    frame->index = static_cast<int64_t>(next_++);
    frame->name = f.filename().string();
    // The bounded decoder of outside images (size limits, PNG and JPEG only): a bad file is a frame with its
    // problem, and the game goes on.
    auto image = calibration::ReadImageFile(f.string(), calibration::ImageRead::kColor);
    frame->image = image ? *image : cv::Mat();
    frame->problem = image ? "" : image.error();
    return true;
  }
  int64_t count() const override { return static_cast<int64_t>(files_.size()); }
  bool can_read_again() const override { return true; }
  bool SkipTo(int64_t index) override {
    if (index < 0 || index > static_cast<int64_t>(files_.size())) return false;
    next_ = static_cast<size_t>(index);
    return true;
  }

 private:
  std::vector<fs::path> files_;
  size_t next_ = 0;
};

// A video file: its frames in order, to its end.
class Video : public FrameSource {
 public:
  Video(std::unique_ptr<VideoCapture> capture, std::string path, std::string label)
      : capture_(std::move(capture)), path_(std::move(path)), label_(std::move(label)) {}
  bool Next(Frame* frame) override {
    cv::Mat image;
    if (!capture_->IsOpened() || !capture_->Read(&image) || image.empty()) return false;
    frame->index = index_++;
    frame->name = label_ + " #" + std::to_string(frame->index);
    frame->image = image;
    frame->problem.clear();
    return true;
  }
  bool can_read_again() const override { return true; }
  // Read again from the start up to `index` (exact whatever the codec; seeking by position is not).
  bool SkipTo(int64_t index) override {
    if (index < 0) return false;
    if (index < index_) {
      capture_->Release();
      if (!capture_->OpenFile(path_)) return false;
      index_ = 0;
    }
    for (; index_ < index; ++index_)
      if (!capture_->Grab()) return false;
    return true;
  }
  int64_t count() const override {
    const double n = capture_->FrameCount();
    return n > 0 ? static_cast<int64_t>(n) : -1;
  }

 private:
  std::unique_ptr<VideoCapture> capture_;
  std::string path_, label_;
  int64_t index_ = 0;
};

class Camera : public FrameSource {
 public:
  Camera(std::unique_ptr<CameraDevice> device, std::string label, CameraRetry retry)
      : device_(std::move(device)), label_(std::move(label)), retry_(retry) {}
  bool Next(Frame* frame) override {
    cv::Mat image;
    const bool got = open_ && device_->Read(&image) && !image.empty();
    if (!got && lost_ >= retry_.attempts) return false;  // gone
    frame->index = index_++;
    frame->name = label_ + " #" + std::to_string(frame->index);
    frame->image = got ? image : cv::Mat();
    frame->problem.clear();
    if (got) {
      lost_ = 0;
      return true;
    }
    // A camera that gives no frame (unplugged, asleep): a problem frame (the GUI shows a banner), then it is
    // opened again after a pause; after `retry_.attempts` failed attempts in a row it counts as gone.
    ++lost_;
    frame->problem =
        label_ + ": no frame (lost; reconnecting, attempt " + std::to_string(lost_) + " of " + std::to_string(retry_.attempts) + ")";
    device_->Close();
    std::this_thread::sleep_for(retry_.pause);
    open_ = device_->Open();
    return true;
  }

 private:
  std::unique_ptr<CameraDevice> device_;
  std::string label_;
  CameraRetry retry_;
  bool open_ = true;
  int lost_ = 0;
  int64_t index_ = 0;
};

// OpenCV's capture of camera `number`.
class OpenCvCamera : public CameraDevice {
 public:
  OpenCvCamera(std::unique_ptr<VideoCapture> capture, int number) : capture_(std::move(capture)), number_(number) {}
  bool Open() override { return capture_->OpenCamera(number_); }
  bool Read(cv::Mat* image) override { return capture_->IsOpened() && capture_->Read(image); }
  void Close() override { capture_->Release(); }

 private:
  std::unique_ptr<VideoCapture> capture_;
  int number_;
};

}  // namespace

engine::Result<std::unique_ptr<FrameSource>> OpenImageFolder(const std::string& dir) {
  using R = engine::Result<std::unique_ptr<FrameSource>>;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return R::Error(dir + ": not a folder of images");
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::string ext = e.path().extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
    if (e.is_regular_file() && (ext == ".jpg" || ext == ".jpeg" || ext == ".png")) files.push_back(e.path());
  }
  if (files.empty()) return R::Error(dir + ": no images in it (.jpg, .jpeg, .png)");
  std::sort(files.begin(), files.end());
  return std::unique_ptr<FrameSource>(new ImageFolder(std::move(files)));
}

engine::Result<std::unique_ptr<FrameSource>> OpenVideo(const std::string& path_or_number, bool camera, CameraRetry retry) {
  using R = engine::Result<std::unique_ptr<FrameSource>>;
  if (camera) {
    int number = -1;
    try {
      number = std::stoi(path_or_number);
    } catch (...) {
    }
    if (number < 0) return R::Error("--camera: expected a camera number (0, 1, ...), got \"" + path_or_number + "\"");
    auto capture = NewVideoCapture();
    if (!capture) return R::Error("camera " + path_or_number + ": " + capture.error());
    if (!(*capture)->OpenCamera(number)) return R::Error("camera " + path_or_number + ": cannot open it (is it connected, and free?)");
    return CameraSource(std::make_unique<OpenCvCamera>(std::move(*capture), number), "camera " + path_or_number, retry);
  }
  std::error_code ec;
  if (!fs::is_regular_file(path_or_number, ec)) return R::Error(path_or_number + ": no such video file");
  auto capture = NewVideoCapture();
  if (!capture) return R::Error(path_or_number + ": " + capture.error());
  if (!(*capture)->OpenFile(path_or_number)) return R::Error(path_or_number + ": cannot read it as a video (an unknown format?)");
  return std::unique_ptr<FrameSource>(new Video(std::move(*capture), path_or_number, fs::path(path_or_number).filename().string()));
}

std::unique_ptr<FrameSource> CameraSource(std::unique_ptr<CameraDevice> device, const std::string& label, CameraRetry retry) {
  return std::make_unique<Camera>(std::move(device), label, retry);
}

}  // namespace swref::core
