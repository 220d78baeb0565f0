// A test suite on the shared demo table (suite_table.h): the demo's script, the table, a scratch folder for the
// records its tests write, and referee options that write there. DemoTableTest and RefereeSessionTest derive
// from it. A header of its own because demo_table_prepare, which includes suite_table.h, links no GoogleTest.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "app/core/demo.h"
#include "app/core/demo_table.h"
#include "app/core/referee_session.h"
#include "tests/app/journal_fixture.h"
#include "tests/app/suite_table.h"

namespace swref::core::testing {

class SuiteTableTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    auto demo = RunDemo(kSuiteTableSeed);
    ASSERT_TRUE(demo) << demo.error();
    script_ = new DemoReport(std::move(*demo));
    auto table = SuiteTable(script_->record, dir_->path() / "table");
    ASSERT_TRUE(table) << table.error();
    table_ = new DemoTable(std::move(*table));
  }
  static void TearDownTestSuite() {
    delete table_;
    delete script_;
    delete dir_;
    table_ = nullptr;
    script_ = nullptr;
    dir_ = nullptr;
  }
  // Referee options on the table, writing `record` in the scratch folder (durably enough for a test: FastReplace).
  RefereeOptions Options(const std::string& record) const {
    RefereeOptions o;
    o.setup = table_->setup;
    o.record = (dir_->path() / record).string();
    o.journal.write = FastReplace;
    return o;
  }

  static inline TempDir* dir_ = nullptr;
  static inline DemoReport* script_ = nullptr;
  static inline DemoTable* table_ = nullptr;
};

}  // namespace swref::core::testing
