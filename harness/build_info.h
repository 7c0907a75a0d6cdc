// The tlmcraft version and the git commit the binary was built from, captured at build
// time by cmake/write_build_info.cmake (the commit is "unknown" outside a git checkout).
#pragma once

namespace tlmcraft {

const char* build_version();  // e.g. "0.1.0" (project() in CMakeLists.txt)
const char* build_commit();   // 40 hex digits, or "unknown"
bool build_dirty();           // tracked files differed from the commit when built

}  // namespace tlmcraft
