#include "scripted_http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <stdexcept>

namespace tlmcraft::test {
namespace {

const char* reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 413: return "Payload Too Large";
    case 401: return "Unauthorized";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    case 529: return "Overloaded";
    default: return "Status";
  }
}

void send_all(int fd, const std::string& s) {
  size_t off = 0;
  while (off < s.size()) {
    const ssize_t n = ::send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
    if (n <= 0) return;  // the client gave up (timeout test): nothing to do
    off += static_cast<size_t>(n);
  }
}

}  // namespace

ScriptedHttpServer::ScriptedHttpServer() {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (listen_fd_ < 0) throw std::runtime_error("test server: socket() failed");
  int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;  // ephemeral
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listen_fd_, 16) != 0)
    throw std::runtime_error("test server: bind/listen failed");
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  thread_ = std::thread([this] { serve(); });
}

ScriptedHttpServer::~ScriptedHttpServer() {
  stop_ = true;
  stop_cv_.notify_all();
  thread_.join();
  ::close(listen_fd_);
}

void ScriptedHttpServer::push(ScriptedResponse r) {
  std::lock_guard<std::mutex> lock(mutex_);
  script_.push_back(std::move(r));
}

void ScriptedHttpServer::set_handler(std::function<ScriptedResponse(const RecordedRequest&)> handler) {
  std::lock_guard<std::mutex> lock(mutex_);
  handler_ = std::move(handler);
}

std::vector<RecordedRequest> ScriptedHttpServer::requests() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return requests_;
}

void ScriptedHttpServer::serve() {
  while (!stop_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 20) <= 0) continue;
    const int fd = ::accept(listen_fd_, nullptr, nullptr);
    if (fd < 0) continue;
    handle(fd);
    ::close(fd);
  }
}

void ScriptedHttpServer::handle(int fd) {
  // Read the head, then Content-Length bytes of body.
  std::string data;
  char buf[8192];
  size_t head_end = std::string::npos;
  auto read_more = [&]() {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 2000) <= 0) return false;
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return false;
    data.append(buf, static_cast<size_t>(n));
    return true;
  };
  while ((head_end = data.find("\r\n\r\n")) == std::string::npos)
    if (!read_more()) return;
  RecordedRequest req;
  const std::string head = data.substr(0, head_end);
  size_t line_end = head.find("\r\n");
  const std::string first = head.substr(0, line_end);
  const size_t sp1 = first.find(' '), sp2 = first.find(' ', sp1 + 1);
  req.method = first.substr(0, sp1);
  req.path = first.substr(sp1 + 1, sp2 - sp1 - 1);
  size_t pos = line_end == std::string::npos ? head.size() : line_end + 2;
  while (pos < head.size()) {
    size_t e = head.find("\r\n", pos);
    if (e == std::string::npos) e = head.size();
    const std::string line = head.substr(pos, e - pos);
    const size_t colon = line.find(':');
    if (colon != std::string::npos) {
      std::string name = line.substr(0, colon);
      std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
      size_t v = colon + 1;
      while (v < line.size() && line[v] == ' ') ++v;
      req.headers[name] = line.substr(v);
    }
    pos = e + 2;
  }
  const size_t length = req.headers.count("content-length") ? std::stoul(req.headers["content-length"]) : 0;
  while (data.size() - (head_end + 4) < length)
    if (!read_more()) return;
  req.body = data.substr(head_end + 4, length);

  ScriptedResponse r{500, R"({"error":{"message":"test server: no scripted response left"}})", {}, 0};
  std::function<ScriptedResponse(const RecordedRequest&)> handler;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    requests_.push_back(req);
    handler = handler_;
    if (!handler && !script_.empty()) {
      r = script_.front();
      script_.pop_front();
    }
  }
  if (handler) r = handler(req);  // outside the lock: it may take its time
  if (r.delay_ms > 0) {
    std::unique_lock<std::mutex> lock(mutex_);
    stop_cv_.wait_for(lock, std::chrono::milliseconds(r.delay_ms), [this] { return stop_.load(); });
  }
  std::string out = "HTTP/1.1 " + std::to_string(r.status) + " " + reason(r.status) + "\r\n";
  out += "Content-Type: application/json\r\nConnection: close\r\n";
  out += "Content-Length: " + std::to_string(r.body.size()) + "\r\n";
  for (const auto& [k, v] : r.headers) out += k + ": " + v + "\r\n";
  out += "\r\n" + r.body;
  send_all(fd, out);
}

}  // namespace tlmcraft::test
