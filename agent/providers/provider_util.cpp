#include "agent/providers/provider_util.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>

namespace tlmcraft::agent {

std::string option_or_env(const std::string& value, std::initializer_list<const char*> names,
                          const std::string& fallback) {
  if (!value.empty()) return value;
  for (const char* name : names) {
    const char* v = std::getenv(name);
    if (v && *v) return v;
  }
  return fallback;
}

HttpOptions http_options_for(const ProviderOptions& o, const std::string& label) {
  if (!(o.timeout_seconds > 0)) throw ProviderError(label + ": the request timeout must be positive");
  if (o.max_retries < 0) throw ProviderError(label + ": max_retries must be >= 0");
  if (o.backoff_seconds < 0) throw ProviderError(label + ": backoff_seconds must be >= 0");
  HttpOptions h;
  h.timeout_seconds = o.timeout_seconds;
  h.connect_timeout_seconds = std::min(10.0, o.timeout_seconds);
  h.max_retries = o.max_retries;
  h.backoff_seconds = o.backoff_seconds;
  h.label = label;
  h.log = &std::cerr;
  if (o.requests_per_minute > 0 || o.tokens_per_minute > 0) {
    try {
      h.limiter = std::make_shared<RateLimiter>(
          RateLimits{o.requests_per_minute, o.tokens_per_minute, o.rate_window_seconds}, o.rate_limit_file);
    } catch (const std::runtime_error& e) {
      throw ProviderError(label + ": " + e.what());
    }
  }
  return h;
}

nlohmann::json with_extra_body(nlohmann::json body, const ProviderOptions& options) {
  if (options.extra_body.is_object()) body.merge_patch(options.extra_body);
  return body;
}

bool is_context_length_message(const std::string& message) {
  std::string m = message;
  std::transform(m.begin(), m.end(), m.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  for (const char* phrase : {"prompt is too long", "context_length_exceeded", "maximum context length",
                             "context window", "exceeds the maximum number of tokens", "input is too long",
                             "too many tokens"})
    if (m.find(phrase) != std::string::npos) return true;
  return false;
}

void throw_http_error(const HttpClient& http, const std::string& url, const HttpResponse& r) {
  // OpenAI puts the reason in error.code, which api_error_message leaves out.
  const nlohmann::json j = nlohmann::json::parse(r.body, nullptr, false);
  const bool code_says = j.is_object() && j.contains("error") && j["error"].is_object() &&
                         j["error"].value("code", nlohmann::json()).is_string() &&
                         j["error"]["code"].get<std::string>() == "context_length_exceeded";
  if ((r.status == 400 || r.status == 413) && (code_says || is_context_length_message(api_error_message(r.body))))
    throw ContextLengthError(http.error_text(url, r));
  throw ProviderError(http.error_text(url, r));
}

std::string join_url(const std::string& base, const std::string& path) {
  std::string b = base;
  while (!b.empty() && b.back() == '/') b.pop_back();
  std::string p = path;
  while (!p.empty() && p.front() == '/') p.erase(p.begin());
  return b + "/" + p;
}

std::string json_text(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

nlohmann::json parse_response_body(const std::string& label, const std::string& url, const std::string& body) {
  nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    std::string snippet = body.substr(0, 200);
    throw ProviderError(label + ": the response from " + url + " is not a JSON object: " +
                        (snippet.empty() ? "(empty body)" : snippet));
  }
  return j;
}

}  // namespace tlmcraft::agent
