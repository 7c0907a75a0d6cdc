// ISA descriptions kept outside the data folder (a plugin's own isa/): isa_yaml_path's
// home_dir and table_isa_tools(..., home_dir) find them, and TLMCRAFT_ISA_DIR still comes
// first where it holds the file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "isa/isa_spec.h"
#include "isa/isa_tools.h"

namespace tlmcraft::isa {
namespace {

namespace fs = std::filesystem;

class IsaHomeDir : public ::testing::Test {
 protected:
  void SetUp() override {
    ::unsetenv("TLMCRAFT_ISA_DIR");
    root_ = fs::temp_directory_path() / ("tlm_isa_home_test_" + std::to_string(::getpid()));
    fs::create_directories(root_ / "home" / "plena");
    fs::create_directories(root_ / "flat");
    fs::create_directories(root_ / "empty");
    const fs::path shipped = fs::path(TLMCRAFT_SOURCE_DIR) / "isa" / "plena" / "plena.yaml";
    fs::copy_file(shipped, root_ / "home" / "plena" / "plena.yaml");
    fs::copy_file(shipped, root_ / "flat" / "plena.yaml");
  }
  void TearDown() override {
    ::unsetenv("TLMCRAFT_ISA_DIR");
    fs::remove_all(root_);
  }
  std::string at(const std::string& rel) const { return (root_ / rel).string(); }
  fs::path root_;
};

TEST_F(IsaHomeDir, HomeFolderIsSearchedNestedThenFlat) {
  EXPECT_EQ(isa_yaml_path_in("", "plena", at("home")), at("home/plena/plena.yaml"));
  EXPECT_EQ(isa_yaml_path_in("", "plena", at("flat")), at("flat/plena.yaml"));
  // Missing: the nested path, which load() names in its error.
  EXPECT_EQ(isa_yaml_path_in("", "plena", at("empty")), at("empty/plena/plena.yaml"));
}

TEST_F(IsaHomeDir, AnOverrideFolderWinsOnlyWhereItHoldsTheFile) {
  EXPECT_EQ(isa_yaml_path_in(at("flat"), "plena", at("home")), at("flat/plena.yaml"));
  EXPECT_EQ(isa_yaml_path_in(at("empty"), "plena", at("home")), at("home/plena/plena.yaml"));
  // Without a home the override folder must hold it (as before): its nested path.
  EXPECT_EQ(isa_yaml_path_in(at("empty"), "plena"), at("empty/plena/plena.yaml"));
  ::setenv("TLMCRAFT_ISA_DIR", at("empty").c_str(), 1);
  EXPECT_EQ(isa_yaml_path("plena", at("home")), at("home/plena/plena.yaml"));
  ::setenv("TLMCRAFT_ISA_DIR", at("flat").c_str(), 1);
  EXPECT_EQ(isa_yaml_path("plena", at("home")), at("flat/plena.yaml"));
}

TEST_F(IsaHomeDir, TableToolsReadTheHomeFolder) {
  const IsaTools tools = table_isa_tools("plena", "test", {".asm"}, nullptr, at("home"));
  const IsaCheck check = tools.check("");
  EXPECT_TRUE(check.ok());
  EXPECT_EQ(check.file, at("home/plena/plena.yaml"));
  const AsmResult r = tools.assemble("S_ADDI_INT gp1, gp0, 5\n", "k.asm");
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.instructions, 1u);
  // A home without the file: the check names the path it looked for.
  const IsaCheck missing = table_isa_tools("plena", "test", {".asm"}, nullptr, at("empty")).check("");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.file, at("empty/plena/plena.yaml"));
  EXPECT_NE(missing.errors.front().find(at("empty/plena/plena.yaml")), std::string::npos) << missing.errors.front();
}

}  // namespace
}  // namespace tlmcraft::isa
