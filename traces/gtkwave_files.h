// GTKWave companions of a VCD: a translate filter that shows each 'slice' signal's value
// as its instruction name, and a save file (.gtkw) that opens the VCD with every signal
// displayed and the filter applied, so `gtkwave run.gtkw` shows readable names.
#pragma once
#include <ostream>
#include <string>

#include "traces/vcd_writer.h"

namespace tlmcraft::traces {

// "<vcd>.names.txt" and "<vcd without .vcd>.gtkw".
std::string gtkwave_filter_path(const std::string& vcd_path);
std::string gtkwave_save_path(const std::string& vcd_path);

// Filter lines "<value> <name>": "0 idle", then one per slice name.
void write_gtkwave_filter(const VcdLayout& layout, std::ostream& out);
// The save file: [dumpfile], then per track a comment row and its signals; the
// 'slice' signals decimal with the filter (file filter 1), the counters decimal.
void write_gtkwave_save(const VcdLayout& layout, const std::string& vcd_path, const std::string& filter_path,
                        std::ostream& out);
// Writes both beside the VCD (absolute paths inside the save file); throws
// std::runtime_error naming a file that cannot be written.
void write_gtkwave_files(const VcdLayout& layout, const std::string& vcd_path);

}  // namespace tlmcraft::traces
