// OccupancyCounter: intervals in any order become one counter sample per change, both
// when flushed at the end and when streamed with advance().
#include "traces/occupancy.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace tlmcraft::traces {
namespace {

std::vector<std::pair<uint64_t, int64_t>> samples(const TraceRecorder& rec) {
  std::vector<std::pair<uint64_t, int64_t>> out;
  for (size_t i = 0; i < rec.events().size(); ++i) out.push_back({rec.events()[i].begin, rec.events()[i].value()});
  return out;
}

TEST(OccupancyCounter, ThreeOverlappingIntervalsRiseToThreeThenFall) {
  TraceRecorder rec;
  const int q = rec.track("core", "rob");
  OccupancyCounter c;
  c.add(4, 10);
  c.add(2, 8);   // out of order
  c.add(6, 12);
  c.add(5, 5);   // empty: occupies nothing
  c.flush(rec, q);
  EXPECT_EQ(samples(rec), (std::vector<std::pair<uint64_t, int64_t>>{{0, 0}, {2, 1}, {4, 2}, {6, 3}, {8, 2}, {10, 1}, {12, 0}}));
}

TEST(OccupancyCounter, AnEndAndABeginInOneCycleGiveNoSample) {
  TraceRecorder rec;
  const int q = rec.track("core", "rob");
  OccupancyCounter c;
  c.add(0, 3);
  c.add(3, 5);  // takes the entry the first frees at cycle 3: the count stays 1
  c.flush(rec, q);
  EXPECT_EQ(samples(rec), (std::vector<std::pair<uint64_t, int64_t>>{{0, 0}, {0, 1}, {5, 0}}));
}

TEST(OccupancyCounter, AdvanceStreamsChangesBeforeTheCycleAndKeepsTheRest) {
  TraceRecorder rec;
  const int q = rec.track("core", "rob");
  OccupancyCounter c;
  c.add(1, 9);
  c.add(2, 4);
  c.advance(rec, q, 4);  // changes at 1 and 2 are final; the end at 4 may still meet a begin at 4
  EXPECT_EQ(samples(rec), (std::vector<std::pair<uint64_t, int64_t>>{{0, 0}, {1, 1}, {2, 2}}));
  EXPECT_EQ(c.open(), 2);
  c.add(4, 6);  // replaces the entry ending at 4: no change at 4
  c.advance(rec, q, 7);
  EXPECT_EQ(samples(rec), (std::vector<std::pair<uint64_t, int64_t>>{{0, 0}, {1, 1}, {2, 2}, {6, 1}}));
  c.flush(rec, q);
  EXPECT_EQ(samples(rec).back(), (std::pair<uint64_t, int64_t>{9, 0}));
  EXPECT_FALSE(c.empty());  // started: finish() still flushes it
}

TEST(OccupancyCounter, EmptyUntilUsedThenStartsAtZero) {
  TraceRecorder rec;
  const int q = rec.track("core", "axi");
  OccupancyCounter c;
  EXPECT_TRUE(c.empty());  // platforms skip counters that never saw an interval
  c.flush(rec, q, 7);
  EXPECT_EQ(samples(rec), (std::vector<std::pair<uint64_t, int64_t>>{{7, 0}}));
  EXPECT_FALSE(c.empty());
}

}  // namespace
}  // namespace tlmcraft::traces
