// Coral compiler baselines: C with RVV intrinsics (clang-16 -O2), one template per task
// under tasks/baselines/coral/templates/ (read at run time from the source tree), and
// the scalar C programs of the CPU case study under templates/cpu/. A baseline is the
// layout's "#define" lines (addresses, shapes, shifts) followed by the template with its
// `#include "fragment.c"` lines inlined, so the platform compiles one self-contained file.
#pragma once
#include <string>

#include "tasks/registry.h"

namespace tlmcraft::tasks::coral {

// The folder holding the templates (TLMCRAFT_CORAL_TEMPLATES if set, else the data folder's (common/data_dir.h)).
std::string templates_dir();
// True if a template exists for this task (ML task or CPU program) on Coral.
bool has_c_baseline(const std::string& task);
// The template file of a task, relative to templates_dir() ("gemm.c", "cpu/qsort.c").
std::string template_file(const std::string& task);
// A template file's text with every `#include "name.c"` line replaced by that fragment
// (from the same folder, each fragment at most once). Throws std::runtime_error naming
// the file that cannot be read.
std::string expand_template(const std::string& relative_path);
// The complete C source of the baseline for a Coral instance. Throws TaskError if the
// instance is not on Coral or has no template.
std::string c_baseline(const Instance& instance);

}  // namespace tlmcraft::tasks::coral
