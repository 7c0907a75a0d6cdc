// docs/tasks.md carries the task x platform table generated from the specs; this test
// fails when they drift. Run with TLMCRAFT_UPDATE_DOCS=1 to rewrite the table in place.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "tasks/docs_table.h"

namespace tlmcraft::tasks {
namespace {

TEST(Docs, TaskTableMatchesTheSpecs) {
  const std::string path = std::string(TLMCRAFT_SOURCE_DIR) + "/docs/tasks.md";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  std::string doc = ss.str();
  const size_t b = doc.find(kTableBegin), e = doc.find(kTableEnd);
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  const size_t start = b + std::string(kTableBegin).size() + 1;  // after the marker's newline
  const std::string table = markdown_task_table(Registry::builtin());
  const char* update = std::getenv("TLMCRAFT_UPDATE_DOCS");
  if (update && std::string(update) == "1") {
    doc.replace(start, e - start, table);
    std::ofstream(path) << doc;
    return;
  }
  EXPECT_EQ(doc.substr(start, e - start), table) << "regenerate with TLMCRAFT_UPDATE_DOCS=1 ./tasks_tests --gtest_filter=Docs.*";
}

TEST(Docs, TableShowsProvenanceAndUnsupportedCells) {
  const std::string t = markdown_task_table(Registry::builtin());
  EXPECT_NE(t.find("| 1 | silu | 1 | (n) | C1 256<br>C2 1024<br>C3 2048<br>C4 8192<br>C5 16384 |"), std::string::npos) << t;
  EXPECT_NE(t.find("C2 (128,512)*"), std::string::npos);      // GEMV interpolated
  EXPECT_NE(t.find("| 11 | conv2d | 1 | (H, c_in, c_out, k) | C1 (8,8,8,1)+<br>"), std::string::npos);
  EXPECT_NE(t.find("| 12 | depthwise_conv | 1 | (H, c, k) | C1 (8,16,3)+<br>"), std::string::npos);
  EXPECT_NE(t.find("| 21 | conv_block | 3 | (H, c_in, c_out, k) | C1 (8,8,8,1)+<br>"), std::string::npos);
  EXPECT_NE(t.find("| | **configurations** | | | 115 | 115 | 115 |"), std::string::npos);
  EXPECT_NE(t.find("CPU group (names only for now): multiply, vvadd"), std::string::npos);
}

}  // namespace
}  // namespace tlmcraft::tasks
