#include "agent/providers/provider_util.h"

#include <algorithm>
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
  return h;
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
