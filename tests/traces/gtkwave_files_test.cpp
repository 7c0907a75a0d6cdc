// The GTKWave translate filter and save file written beside a VCD.
#include "traces/gtkwave_files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/traces/example_trace.h"
#include "tests/unique_temp_dir.h"

namespace tlmcraft::traces {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(GtkwaveFiles, FilterMapsSliceValuesToNames) {
  TraceRecorder rec;
  test::record_example(rec);
  VcdOptions o;
  o.date = "fixed";
  std::ostringstream vcd;
  const VcdLayout layout = write_vcd(rec, vcd, o);
  std::ostringstream filter;
  write_gtkwave_filter(layout, filter);
  // The same dense indices as the VCD's 'slice' values: vmul 1, load 2, vadd 3.
  EXPECT_EQ(filter.str(), "0 idle\n1 vmul\n2 load\n3 vadd\n");
  EXPECT_NE(vcd.str().find("\t1 vmul\n\t2 load\n\t3 vadd\n"), std::string::npos);
}

TEST(GtkwaveFiles, SaveFileShowsEverySignalWithTheFilterOnSlices) {
  TraceRecorder rec;
  test::record_example(rec);
  std::ostringstream vcd, save;
  const VcdLayout layout = write_vcd(rec, vcd, {"fixed"});
  write_gtkwave_save(layout, "/t/run.vcd", "/t/run.vcd.names.txt", save);
  EXPECT_EQ(save.str(),
            "[*] GTKWave save file written by tlmcraft: slice values show as instruction names\n"
            "[dumpfile] \"/t/run.vcd\"\n"
            "[timestart] 0\n"
            "@200\n-plena.vector\n"
            "@28\nplena.vector.busy\n"
            "@2024\n^1 /t/run.vcd.names.txt\nplena.vector.slice[31:0]\n"
            "@28\nplena.vector.event\n"
            "@200\n-plena.pc\n"
            "@24\nplena.pc.value[31:0]\n"
            "@200\n-plena.dma.prefetch\n"
            "@28\nplena.dma.prefetch.busy\n"
            "@2024\n^1 /t/run.vcd.names.txt\nplena.dma.prefetch.slice[31:0]\n");
}

TEST(GtkwaveFiles, WrittenBesideTheVcd) {
  TraceRecorder rec;
  test::record_example(rec);
  const ::tlmcraft::test::UniqueTempDir scratch("gtkw");
  const std::filesystem::path dir = scratch.path();
  const std::string vcd = (dir / "run.vcd").string();
  write_vcd_file(rec, vcd, {"fixed"});
  EXPECT_EQ(gtkwave_save_path(vcd), (dir / "run.gtkw").string());
  EXPECT_EQ(slurp(gtkwave_filter_path(vcd)), "0 idle\n1 vmul\n2 load\n3 vadd\n");
  const std::string save = slurp((dir / "run.gtkw").string());
  EXPECT_NE(save.find("[dumpfile] \"" + vcd + "\"\n"), std::string::npos);
  EXPECT_NE(save.find("^1 " + vcd + ".names.txt\n"), std::string::npos);
  EXPECT_EQ(gtkwave_save_path("trace"), "trace.gtkw");
}

}  // namespace
}  // namespace tlmcraft::traces
