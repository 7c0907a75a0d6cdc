// A PLENA kernel issuing prefetches in a long loop runs in bounded memory: completed
// transfers leave no bookkeeping behind (they used to pile up as DMA completion events).
#include <sys/resource.h>

#include "tests/platforms/plena_test_util.h"

namespace tlmcraft::plena {
namespace {

long max_rss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

std::string prefetch_loop(int outer) {
  return "S_ADDI_INT gp1, gp0, 256\nC_SET_SCALE_REG gp1\nS_ADDI_INT gp3, gp0, 0\nC_LOOP_START gp6, " +
         std::to_string(outer) + "\nC_LOOP_START gp7, 100\nH_PREFETCH_V gp3, gp0, a0, 0, 0\nC_LOOP_END gp7\nC_LOOP_END gp6\n";
}

TEST(PlenaBounds, PrefetchLoopRunsInBoundedMemory) {
  PlenaPlatform p(load_plena_config("default", {}));
  const RunResult warm = testing::run(p, prefetch_loop(20));  // 2,000 prefetches
  ASSERT_TRUE(warm.ok()) << warm.message;
  const long before = max_rss_kb();
  const RunResult r = testing::run(p, prefetch_loop(200));  // 20,000 prefetches
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_GE(r.memory["dma_prefetch"]["descriptors"].get<uint64_t>(), 20000u);
  // 18,000 more transfers; each used to keep a few hundred bytes until the run ended.
  EXPECT_LT(max_rss_kb() - before, 1500) << "max RSS grew by " << max_rss_kb() - before << " KB";
}

}  // namespace
}  // namespace tlmcraft::plena
