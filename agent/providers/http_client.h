// JSON over HTTP(S) for the LLM providers, on libcurl: one POST per call with request and
// connect timeouts, and retries with exponential backoff on 429, 5xx and transport failures
// (connection refused, timeouts), honouring Retry-After. Everything a retry cannot fix ends
// in a ProviderError whose message names the endpoint, the HTTP status and the API's own
// error message.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "agent/llm.h"
#include "agent/providers/rate_limiter.h"

namespace tlmcraft::agent {

struct HttpResponse {
  long status = 0;                              // HTTP status code
  std::string body;
  std::map<std::string, std::string> headers;   // names lower-cased; last value wins
};

struct HttpOptions {
  double timeout_seconds = 300;          // whole request (connect + upload + model latency + download)
  double connect_timeout_seconds = 10;   // TCP + TLS handshake (never more than timeout_seconds)
  int max_retries = 5;                   // extra attempts after the first
  double backoff_seconds = 1.0;          // first delay; doubles on each retry
  double max_delay_seconds = 60;         // cap on any single delay, Retry-After included
  size_t max_response_bytes = size_t(64) << 20;  // a completion is far smaller; cut off runaway bodies
  std::string label = "http";            // prefix of messages ("openai", "anthropic")
  // How to wait between attempts (tests record the delays instead of sleeping).
  std::function<void(double seconds)> sleep;
  // Where retry notices go (nullptr: nowhere). Never stdout: the MCP server owns it.
  std::ostream* log = nullptr;
  // Shared request/token budget (nullptr: none): taken before every attempt, with the
  // body's estimated tokens (bytes / 4); a 429's Retry-After holds every sharer back.
  std::shared_ptr<RateLimiter> limiter;
};

// Extracts the human-readable message from an API error body: OpenAI's
// {"error":{"message":...}}, Anthropic's {"type":"error","error":{"type":...,"message":...}},
// {"error":"text"}, {"message":...}; otherwise the body itself, shortened.
std::string api_error_message(const std::string& body);

// The delay a Retry-After (seconds or HTTP date) or retry-after-ms header asks for;
// negative when the response carries neither.
double retry_after_seconds(const HttpResponse& response);

class HttpClient {
 public:
  explicit HttpClient(HttpOptions options);

  // POSTs `body` (JSON) to `url` with the extra headers ("Name: value"), retrying as
  // described above, and returns the first response that is neither 429 nor 5xx (2xx or
  // another 4xx). Throws ProviderError for transport failures and exhausted retries.
  // `attempts` (if given) receives how many requests were sent.
  HttpResponse send(const std::string& url, const std::vector<std::string>& headers, const std::string& body,
                    int* attempts = nullptr) const;

  // send(), then a ProviderError with the status and the API's message for any non-2xx.
  HttpResponse post_json(const std::string& url, const std::vector<std::string>& headers, const std::string& body,
                         int* attempts = nullptr) const;

  // The ProviderError message for a failed response: "<label>: HTTP 401 from URL: message".
  std::string error_text(const std::string& url, const HttpResponse& response) const;

  const HttpOptions& options() const { return options_; }

 private:
  HttpOptions options_;
};

}  // namespace tlmcraft::agent
