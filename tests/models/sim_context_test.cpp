#include <gtest/gtest.h>

#include "models/scratchpad.h"
#include "models/sim_context.h"
#include "tests/models/test_support.h"

namespace tlmcraft::models {
namespace {

TEST(Clock, ConvertsCyclesExactly) {
  fresh_sim_context();
  const Clock c(sc_core::sc_time(1, sc_core::SC_NS));
  EXPECT_EQ(c.to_time(7), sc_core::sc_time(7, sc_core::SC_NS));
  // 1.5 ns lies inside cycle 1: ceil -> 2 (the next edge), floor -> 1.
  EXPECT_EQ(c.to_cycles_ceil(sc_core::sc_time(1500, sc_core::SC_PS)), 2u);
  EXPECT_EQ(c.to_cycles_floor(sc_core::sc_time(1500, sc_core::SC_PS)), 1u);
  EXPECT_EQ(c.to_cycles_ceil(sc_core::sc_time(3, sc_core::SC_NS)), 3u);

  const Clock slow(sc_core::sc_time(1250, sc_core::SC_PS));  // 800 MHz
  EXPECT_EQ(slow.to_time(4), sc_core::sc_time(5, sc_core::SC_NS));
  EXPECT_EQ(slow.to_cycles_ceil(sc_core::sc_time(5, sc_core::SC_NS)), 4u);
  EXPECT_THROW(Clock(sc_core::SC_ZERO_TIME), std::invalid_argument);
}

TEST(SimContext, ElaboratesAndSimulatesRepeatedly) {
  // The same module names in successive contexts: only possible with a fresh context each time.
  for (int round = 0; round < 3; ++round) {
    fresh_sim_context();
    ScratchpadConfig cfg;
    cfg.size_bytes = 64;
    Scratchpad spad("spad", cfg);
    testing::Initiator init("init");
    init.socket.bind(spad.socket);
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);  // a new context starts at 0
    sc_core::sc_start(10, sc_core::SC_NS);
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(10, sc_core::SC_NS));
  }
}

TEST(SimContext, ReplacedContextsAreDeletedOnceTheirModulesAreGone) {
  fresh_sim_context();
  const size_t before = retired_sim_contexts();
  {
    ScratchpadConfig cfg;
    cfg.size_bytes = 64;
    Scratchpad alive("alive", cfg);
    fresh_sim_context();  // `alive` still uses the old context: it must stay
    EXPECT_EQ(retired_sim_contexts(), before + 1);
    Scratchpad in_new("in_new", cfg);
  }
  fresh_sim_context();  // both modules are gone: both old contexts are deleted
  EXPECT_EQ(retired_sim_contexts(), before);
  for (int round = 0; round < 50; ++round) fresh_sim_context();
  EXPECT_EQ(retired_sim_contexts(), before);
}

}  // namespace
}  // namespace tlmcraft::models
