// The enrolled token model, SETUP/tokens/model.json (calibration/token_model.h, TokenModel::FromJson); an
// accepted model names a candidate (its templates' spectra are used) and is written back and read again.
#include <cstdlib>

#include "calibration/token_model.h"
#include "engine/json_input.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swref;
  auto doc = engine::ParseJsonText(fuzz::Text(data, size), "model.json");
  if (!doc.ok()) return 0;
  auto model = calibration::TokenModel::FromJson(*doc, "model.json");
  if (!model.ok()) return 0;
  calibration::PolarSamples samples(calibration::kPolarSize);
  for (size_t i = 0; i < samples.size(); ++i) samples[i] = static_cast<float>(i % 97);
  (void)model->Rank(samples, 3);
  auto again = calibration::TokenModel::FromJson(model->ToJson(), "again");
  if (!again.ok() || again->kinds().size() != model->kinds().size()) std::abort();  // what we write, we read
  return 0;
}
