#include "agent/transcript.h"

#include "agent/context_compaction.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tlmcraft::agent {
namespace {

using nlohmann::json;

std::runtime_error sys_error(const std::string& path, const std::string& what) {
  return std::runtime_error(path + ": " + what + ": " + std::strerror(errno));
}

}  // namespace

TranscriptWriter::TranscriptWriter(const std::string& path) : path_(path) {
  const std::filesystem::path p(path);
  if (p.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(p.parent_path(), ec);
  }
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw sys_error(path, "cannot open transcript");
  // Cut a torn last line so the next event starts on a line of its own.
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && st.st_size > 0) {
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!text.empty() && text.back() != '\n') {
      const auto nl = text.rfind('\n');
      const off_t keep = nl == std::string::npos ? 0 : off_t(nl + 1);
      if (::ftruncate(fd_, keep) != 0) throw sys_error(path, "cannot cut the torn last line");
    }
  }
  if (::lseek(fd_, 0, SEEK_END) < 0) throw sys_error(path, "cannot seek");
}

TranscriptWriter::~TranscriptWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void TranscriptWriter::write(json event) {
  if (!event.contains("time")) {
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    event["time"] = std::round(std::chrono::duration<double>(now).count() * 1000.0) / 1000.0;
  }
  // Invalid UTF-8 from a model must not make the line unwritable.
  const std::string line = event.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw sys_error(path_, "cannot append to transcript");
    }
    done += size_t(n);
  }
  ::fsync(fd_);
}

TranscriptState read_transcript(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open transcript");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  TranscriptState st;
  std::vector<Message> pending;
  std::vector<json> pending_turns;
  size_t pos = 0, line_no = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    const bool terminated = nl != std::string::npos;
    const std::string line = text.substr(pos, terminated ? nl - pos : std::string::npos);
    ++line_no;
    const size_t line_start = pos;
    pos = terminated ? nl + 1 : text.size();
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json ev = json::parse(line, nullptr, false);
    if (ev.is_discarded() || !ev.is_object()) {
      if (!terminated) {  // the line being written when the run was interrupted
        st.torn_bytes = text.size() - line_start;
        break;
      }
      throw std::runtime_error(path + ":" + std::to_string(line_no) + ": not a JSON object");
    }
    ++st.lines;
    const std::string type = ev.value("type", "");
    if (type == "start") {
      if (st.start.is_null()) st.start = ev;
    } else if (type == "message") {
      try {
        pending.push_back(Message::from_json(ev.at("message")));
      } catch (const std::exception& e) {
        throw std::runtime_error(path + ":" + std::to_string(line_no) + ": bad message event: " + e.what());
      }
      if (pending.back().role == Role::Assistant) pending_turns.push_back(ev);
    } else if (type == "round_end") {
      st.conversation.insert(st.conversation.end(), pending.begin(), pending.end());
      st.assistant_turns.insert(st.assistant_turns.end(), pending_turns.begin(), pending_turns.end());
      pending.clear();
      pending_turns.clear();
      st.last_round_end = ev;
      st.result.reset();  // a result followed by more rounds was superseded by a resume
    } else if (type == "compaction") {
      // Recorded between rounds: it edits the committed conversation.
      try {
        std::vector<CompactionChange> changes;
        for (const auto& c : ev.at("changes")) changes.push_back(CompactionChange::from_json(c));
        apply_compaction(st.conversation, changes);
      } catch (const std::exception& e) {
        throw std::runtime_error(path + ":" + std::to_string(line_no) + ": bad compaction event: " + e.what());
      }
    } else if (type == "resume") {
      pending.clear();
      pending_turns.clear();
      st.result.reset();
    } else if (type == "result") {
      st.result = ev;
    }
  }
  return st;
}

}  // namespace tlmcraft::agent
