// vision: from a camera frame to a per-region board observation (register, gate, detect, classify and count).
// So far: the Observation format (observation.h). The observer itself arrives with issue 5.
#pragma once

#include "vision/observation.h"
