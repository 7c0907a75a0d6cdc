// A tiny HTTP/1.1 server on 127.0.0.1 (ephemeral port) for the provider tests: it answers
// each connection's one request with the next scripted response (status, headers, body,
// optional delay before answering) and records every request it received.
#pragma once
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tlmcraft::test {

struct ScriptedResponse {
  int status = 200;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  int delay_ms = 0;  // sleep before answering (timeouts)
};

struct RecordedRequest {
  std::string method, path;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
};

class ScriptedHttpServer {
 public:
  ScriptedHttpServer();
  ~ScriptedHttpServer();
  ScriptedHttpServer(const ScriptedHttpServer&) = delete;
  ScriptedHttpServer& operator=(const ScriptedHttpServer&) = delete;

  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  void push(ScriptedResponse r);
  // Answers every request with handler(request) instead of the script (a fake that
  // validates requests and computes its replies).
  void set_handler(std::function<ScriptedResponse(const RecordedRequest&)> handler);
  void push(int status, const std::string& body) { push(ScriptedResponse{status, body, {}, 0}); }
  std::vector<RecordedRequest> requests() const;

 private:
  void serve();
  void handle(int fd);

  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  mutable std::mutex mutex_;
  std::condition_variable stop_cv_;
  std::deque<ScriptedResponse> script_;
  std::vector<RecordedRequest> requests_;
  std::function<ScriptedResponse(const RecordedRequest&)> handler_;
  std::thread thread_;
};

}  // namespace tlmcraft::test
