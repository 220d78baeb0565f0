// vision: from a camera frame to a per-region board observation (register, gate, detect, classify and count).
// Not built yet: `swref observe` arrives with issue 5.
#pragma once

namespace swref::vision {}  // namespace swref::vision
