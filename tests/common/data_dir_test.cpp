// The data-folder lookup (common/data_dir.h): the variable, the executable's ancestors, the
// build tree's staged link, and the error that names what to set.
#include "common/data_dir.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

namespace tlmcraft::data {
namespace {

namespace fs = std::filesystem;

// A fresh folder under the system temp dir, removed afterwards.
class DataDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "tlmcraft-data-dir-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    root_ = fs::canonical(pattern);
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path folder(const std::string& relative) {
    fs::create_directories(root_ / relative);
    return root_ / relative;
  }
  fs::path root_;
};

TEST_F(DataDirTest, VariableWinsOverTheExecutablesPrefix) {
  folder("prefix/share/tlmcraft");
  const fs::path mine = folder("mine");
  EXPECT_EQ(find_data_dir(mine.c_str(), (root_ / "prefix/bin/tlmcraft").string()), mine.string());
}

TEST_F(DataDirTest, EmptyVariableCountsAsUnset) {
  const fs::path data = folder("prefix/share/tlmcraft");
  EXPECT_EQ(find_data_dir("", (root_ / "prefix/bin/tlmcraft").string()), data.string());
}

TEST_F(DataDirTest, VariableNamingNoFolderIsAnError) {
  const std::string missing = (root_ / "missing").string();
  try {
    find_data_dir(missing.c_str(), (root_ / "prefix/bin/tlmcraft").string());
    FAIL() << "no error";
  } catch (const DataDirError& e) {
    EXPECT_EQ(std::string(e.what()), "TLMCRAFT_DATA_DIR='" + missing +
                                         "': no such directory (it must name the folder holding isa/, platforms/ and tasks/)");
  }
}

TEST_F(DataDirTest, InstalledBinaryFindsShareNextToBin) {
  const fs::path data = folder("prefix/share/tlmcraft");
  folder("prefix/bin");
  EXPECT_EQ(find_data_dir(nullptr, (root_ / "prefix/bin/tlmcraft").string()), data.string());
}

TEST_F(DataDirTest, NearestAncestorWins) {
  folder("prefix/share/tlmcraft");
  const fs::path build_data = folder("prefix/src/build/share/tlmcraft");
  EXPECT_EQ(find_data_dir(nullptr, (root_ / "prefix/src/build/tests/isa/isa_tests").string()), build_data.string());
}

TEST_F(DataDirTest, StagedLinkResolvesToItsTarget) {
  const fs::path source = folder("source");
  folder("build/share");
  fs::create_directory_symlink(source, root_ / "build/share/tlmcraft");
  EXPECT_EQ(find_data_dir(nullptr, (root_ / "build/harness/tlmcraft").string()), source.string());
}

TEST_F(DataDirTest, NotFoundNamesWhereItLookedAndWhatToSet) {
  const fs::path bin = folder("lonely/bin");
  try {
    find_data_dir(nullptr, (bin / "tlmcraft").string());
    FAIL() << "no error";
  } catch (const DataDirError& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot find the tlmcraft data folder (ISA descriptions, platform configs, tasks): no share/tlmcraft in " +
                  bin.string() + " or any folder above it; set TLMCRAFT_DATA_DIR to <install prefix>/share/tlmcraft");
  }
}

// This test binary lives in the build tree, whose share/tlmcraft links to the source tree.
TEST(DataDirBuildTree, TestBinariesFindTheSourceTreeThroughTheStagedLink) {
  ::unsetenv(kDataDirVariable);
  EXPECT_EQ(data_dir(), fs::canonical(TLMCRAFT_SOURCE_DIR).string());
  EXPECT_EQ(data_path("isa/plena/plena.yaml"), fs::canonical(TLMCRAFT_SOURCE_DIR).string() + "/isa/plena/plena.yaml");
}

TEST(DataDirBuildTree, OverrideVariableReplacesOnlyItsFolder) {
  ::unsetenv(kDataDirVariable);
  ::setenv("TLMCRAFT_TEST_OVERRIDE", "/my/specs", 1);
  EXPECT_EQ(data_path_or_env("TLMCRAFT_TEST_OVERRIDE", "tasks/specs"), "/my/specs");
  ::setenv("TLMCRAFT_TEST_OVERRIDE", "", 1);
  EXPECT_EQ(data_path_or_env("TLMCRAFT_TEST_OVERRIDE", "tasks/specs"), data_dir() + "/tasks/specs");
  ::unsetenv("TLMCRAFT_TEST_OVERRIDE");
}

}  // namespace
}  // namespace tlmcraft::data
