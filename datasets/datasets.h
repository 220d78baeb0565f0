// datasets: the synthetic world that vision is measured against. Not built yet: `swref dataset` arrives with
// issue 3.
#pragma once

namespace swref::datasets {}  // namespace swref::datasets
