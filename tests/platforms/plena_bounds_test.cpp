// A PLENA kernel issuing prefetches in a long loop runs in bounded memory: bank bookings
// of completed transfers are pruned in both timing modes, DMA completions schedule no
// events, and transfers pending in the DMA engine are bounded (then the kernel faults).
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

TEST(PlenaBounds, RunawayPrefetchLoopEndsWithAnErrorInBoundedMemory) {
  PlenaPlatform p(load_plena_config("default", {}));
  const RunResult warm = testing::run(p, prefetch_loop(20));  // 2,000 prefetches: fine
  ASSERT_TRUE(warm.ok()) << warm.message;
  const long before = max_rss_kb();
  // 100,000 back-to-back prefetches: the DMA engine falls further and further behind.
  const RunResult r = testing::run(p, prefetch_loop(1000));
  EXPECT_EQ(r.stop, StopReason::Fault);
  EXPECT_NE(r.message.find("line 6: H_PREFETCH_V gp3, gp0, a0, 0, 0): dma 'prefetch_dma': descriptor #"), std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("more than 16384 transfers are pending (the kernel issues transfers faster than the engine "
                           "completes them"),
            std::string::npos)
      << r.message;
  // What pending transfers hold is bounded (about 250 bytes each); it used to grow by
  // about 500 bytes per transfer for the whole run (27 MB here). Under AddressSanitizer
  // the RSS also holds its quarantine of freed memory (256 MB by default) and redzones, so
  // only the normal build (`make test`) measures the bound.
#if !defined(__SANITIZE_ADDRESS__)
  EXPECT_LT(max_rss_kb() - before, 8000) << "max RSS grew by " << max_rss_kb() - before << " KB";
#endif
}

}  // namespace
}  // namespace tlmcraft::plena
