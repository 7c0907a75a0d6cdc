// Reports stay valid JSON of bounded size: invalid UTF-8 from a kernel or a path is kept
// as "\xNN" text, long strings and, over the size limit, long arrays are cut.
#include <gtest/gtest.h>

#include "harness/evaluate.h"
#include "harness/report_bounds.h"
#include "platforms/registry.h"

namespace tlmcraft {
namespace {

using nlohmann::json;

TEST(ReportBounds, InvalidUtf8IsKeptAsEscapedText) {
  EXPECT_EQ(escape_invalid_utf8("a\xff" "b"), "a\\xFFb");
  EXPECT_EQ(escape_invalid_utf8("\xc3\xa9t\xc3\xa9"), "\xc3\xa9t\xc3\xa9");  // valid UTF-8 untouched
  EXPECT_EQ(escape_invalid_utf8("\xc0\xaf"), "\\xC0\\xAF");                  // overlong
  EXPECT_EQ(escape_invalid_utf8("\xed\xa0\x80"), "\\xED\\xA0\\x80");          // surrogate
  EXPECT_EQ(escape_invalid_utf8("x\xe2\x82"), "x\\xE2\\x82");                 // cut short
  json j = {{"path", "kernels/\xfe/k.asm"}, {"list", {"ok", "bad\x80"}}, {"k\xff", 1}};
  sanitize_strings(j);
  EXPECT_EQ(j.dump(), R"({"k\\xFF":1,"list":["ok","bad\\x80"],"path":"kernels/\\xFE/k.asm"})");
}

TEST(ReportBounds, LongStringsAndOversizedReportsAreCut) {
  json j = {{"text", std::string(10000, 'a')}, {"rows", json::array()}};
  for (int i = 0; i < 5000; ++i) j["rows"].push_back(std::string(100, 'r'));
  bound_report(j, 100000);
  EXPECT_EQ(j["text"].get<std::string>().size(), kMaxReportString + std::string("... (5904 more characters)").size());
  ASSERT_EQ(j["rows"].size(), kMaxReportArrayWhenCut + 1);
  EXPECT_EQ(j["rows"].back(), "... and 4900 more (report cut to its size limit)");
  EXPECT_NE(j["report_truncated"].get<std::string>().find("over the limit of 100000 (TLMCRAFT_MAX_REPORT_BYTES)"),
            std::string::npos);
  EXPECT_LT(j.dump().size(), 100000u);
}

TEST(ReportBounds, KernelWithInvalidUtf8GivesAValidReport) {
  auto p = make_platform("plena", "default", {});
  EvalOptions o;
  o.platform = "plena";
  o.task = "silu";
  o.config = "C1";
  o.trials = 1;
  o.seed = 1;  // a fixed input set: the test must not depend on the OS seed
  o.kernel_source = "S_ADDI_INT gp1, gp0, 1 \xff\xfe\nBAD\xc3 x\n";
  const json rep = evaluate(*p, o);
  EXPECT_EQ(rep["status"], "assemble_error");
  const std::string text = rep.dump();  // throws on invalid UTF-8
  EXPECT_NE(text.find("\\\\xFF\\\\xFE"), std::string::npos) << text;
}

}  // namespace
}  // namespace tlmcraft
