// A resume point, RECORD.resume (app/core/resume_point.h, referee_state.h), as `swref referee --resume` reads it:
// the file (size, nesting), its fields, and the session's state checked against a game (the 2-player map's 23
// regions, Ann and Bob, a journal of 400 entries with flags and questions among them). An accepted state is
// written back and must read again as the same.
#include <cstdlib>

#include "app/core/referee_state.h"
#include "app/core/resume_point.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swref;
  static const core::StateContext context = [] {
    core::StateContext c;
    c.regions = 23;
    c.players = {"Ann", "Bob"};
    for (int k = 0; k < 400; ++k)
      c.kinds.push_back(k == 0       ? core::EntryKind::kStart
                        : k % 7 == 3 ? core::EntryKind::kFlag
                        : k % 5 == 1 ? core::EntryKind::kQuestion
                                     : core::EntryKind::kAction);
    c.scores = 20;
    return c;
  }();
  const auto path = fuzz::ScratchDir() / "game.json.resume";
  fuzz::WriteFile(path, fuzz::Text(data, size));
  auto point = core::ReadResumePoint(path);
  if (!point.ok()) return 0;
  auto again = core::ParseResumePoint(core::ToJson(*point), "again");
  if (!again.ok() || again->next_frame != point->next_frame || again->hash != point->hash) std::abort();  // what we write, we read
  auto state = core::ParseSessionState(point->session, context, "session");
  if (!state.ok()) return 0;
  const nlohmann::json written = core::ToJson(*state, context.players);
  auto reread = core::ParseSessionState(written, context, "again");
  if (!reread.ok() || core::ToJson(*reread, context.players) != written) std::abort();
  return 0;
}
