// vision: from a camera frame to a per-region board observation (register, gate, detect, classify and count).
// The Observation format is in observation.h, the observer and its stages in observer.h.
#pragma once

#include "vision/observation.h"
