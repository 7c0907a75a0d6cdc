// Pieces both HTTP providers share: settings from options or the environment, the HTTP
// options a provider's client uses, URL joining and JSON text that never throws.
#pragma once
#include <initializer_list>
#include <string>

#include <nlohmann/json.hpp>

#include "agent/providers.h"
#include "agent/providers/http_client.h"

namespace tlmcraft::agent {

// `value` if set, else the first non-empty environment variable of `names` (comma-free
// list given as separate arguments), else `fallback`.
std::string option_or_env(const std::string& value, std::initializer_list<const char*> names,
                          const std::string& fallback = "");

// The HTTP client settings for a provider (timeouts, retries, backoff, messages on stderr).
HttpOptions http_options_for(const ProviderOptions& options, const std::string& label);

// The request body with options.extra_body merged in (RFC 7386 merge patch: objects merge
// key by key, a null removes the field).
nlohmann::json with_extra_body(nlohmann::json body, const ProviderOptions& options);

// A ContextLengthError when `response` is a provider's "the prompt does not fit the context
// window" answer (HTTP 400/413 with the wording OpenAI, Anthropic, Gemini, DeepSeek and
// vLLM use), else a ProviderError with the status and the API's message.
[[noreturn]] void throw_http_error(const HttpClient& http, const std::string& url, const HttpResponse& response);

// Whether an API error message says the prompt exceeds the context window.
bool is_context_length_message(const std::string& message);

// base + "/" + path without doubled or missing slashes.
std::string join_url(const std::string& base, const std::string& path);

// JSON text with invalid UTF-8 replaced (kernel sources and tool output may contain any
// bytes; nlohmann's plain dump() would throw on them).
std::string json_text(const nlohmann::json& j);

// Parses a response body as JSON; ProviderError naming the label and a snippet if it is not.
nlohmann::json parse_response_body(const std::string& label, const std::string& url, const std::string& body);

}  // namespace tlmcraft::agent
