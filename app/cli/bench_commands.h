// `swref bench engine|scene|vision` (bench referee: referee_commands.h): call app/core's benches and print their
// figures against the goals, or one JSON line. The options are parsed in commands.cpp.
#pragma once

#include <string>

#include "app/core/engine_bench.h"
#include "app/core/synthetic.h"
#include "app/core/vision_bench.h"

namespace swref::cli {

int RunSceneBench(const core::SceneBenchOptions& options, bool json);
int RunVisionBench(const core::VisionBenchOptions& options, bool json);
// `which`: "engine", or "all" (its engine part: commands.cpp runs the scene bench after it).
int RunBench(const std::string& which, const core::EngineBenchOptions& options, bool json);

}  // namespace swref::cli
