// The task x platform table of docs/tasks.md, generated from the specs so the document
// cannot drift from the data (a test compares the two).
#pragma once
#include <string>

#include "tasks/registry.h"

namespace tlmcraft::tasks {

// Markdown: one row per task, one column per platform, each cell the C1..C5 parameter
// tuples ("*" = interpolated between the paper's endpoints, "+" = chosen by us) or
// "unsupported"; followed by the CPU program list.
std::string markdown_task_table(const Registry& registry);

// The markers around the generated part of docs/tasks.md.
constexpr const char* kTableBegin = "<!-- BEGIN GENERATED TASK TABLE (tasks_tests regenerates it) -->";
constexpr const char* kTableEnd = "<!-- END GENERATED TASK TABLE -->";

}  // namespace tlmcraft::tasks
