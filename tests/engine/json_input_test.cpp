#include "engine/json_input.h"

#include <gtest/gtest.h>

#include <fstream>
#include <unistd.h>

#include "engine/map.h"
#include "engine/record.h"

namespace swref::engine {
namespace {

namespace fs = std::filesystem;

fs::path Scratch(const std::string& name) { return fs::temp_directory_path() / ("swref_json_" + std::to_string(::getpid()) + "_" + name); }

TEST(ParseJsonText, Nominal) {
  auto doc = ParseJsonText(R"({"a": [1, {"b": "[[[[ in a string \" ]]]"}]})", "x.json");
  ASSERT_TRUE(doc.ok()) << doc.error();
  EXPECT_EQ((*doc)["a"][1]["b"], "[[[[ in a string \" ]]]");
  EXPECT_EQ(ParseJsonText("{", "x.json").error(), "x.json: not valid JSON");
}

// Found while fuzzing (docs/fuzzing.md): a document nested a million deep parses (nlohmann's parser keeps its own
// stack) but printing it in an error message ("got [[[[...") or copying it recursed until the stack overflowed.
TEST(ParseJsonText, RejectsDeepNesting) {
  const std::string deep = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_TRUE(ParseJsonText(deep, "x.json").ok());
  const std::string deeper = std::string("{\"format\": ").append(1000000, '[').append(1000000, ']').append("}");
  EXPECT_EQ(ParseJsonText(deeper, "x.json").error(), "x.json: JSON nested deeper than 64 levels");
  const fs::path path = Scratch("deep.json");
  std::ofstream(path) << deeper;
  EXPECT_EQ(ReadRecordFile(path).error(), path.string() + ": JSON nested deeper than 64 levels");
  fs::remove(path);
}

TEST(ReadJsonFile, EnforcesTheSizeLimitNamingTheFile) {
  const fs::path path = Scratch("big.json");
  std::ofstream(path) << "[" << std::string(2000, ' ') << "]";
  EXPECT_TRUE(ReadJsonFile(path, 4096, "thing").ok());
  EXPECT_EQ(ReadJsonFile(path, 1000, "thing").error(), path.string() + ": the thing is 2002 bytes, more than the limit of 1000 bytes");
  EXPECT_EQ(ReadJsonFile(Scratch("none.json"), 1000, "thing").error(),
            Scratch("none.json").string() + ": cannot open the thing (no such file)");
  const fs::path folder = fs::temp_directory_path();
  EXPECT_EQ(ReadJsonFile(folder, 1000, "thing").error(), folder.string() + ": cannot open the thing (a folder, not a file)");
  fs::remove(path);
}

// The documented limits of records and map files (docs/architecture.md, Limits).
TEST(ReadJsonFile, RecordAndMapFilesKeepTheirLimits) {
  const fs::path record = Scratch("record.json");
  std::ofstream(record) << "{}";
  fs::resize_file(record, kMaxRecordFileBytes + 1);  // sparse: nothing is written
  EXPECT_EQ(ReadRecordFile(record).error(),
            record.string() + ": the record is " + std::to_string(kMaxRecordFileBytes + 1) + " bytes, more than the limit of 8388608 bytes");
  fs::remove(record);
  const fs::path map = Scratch("map.json");
  std::ofstream(map) << "{}";
  fs::resize_file(map, kMaxJsonFileBytes + 1);
  EXPECT_EQ(LoadMap(map.string(), "").error(),
            map.string() + ": the map file is " + std::to_string(kMaxJsonFileBytes + 1) + " bytes, more than the limit of 1048576 bytes");
  fs::remove(map);
}

}  // namespace
}  // namespace swref::engine
