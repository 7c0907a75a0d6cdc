#include "agent/providers/http_client.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include <curl/curl.h>
#include <nlohmann/json.hpp>

namespace tlmcraft::agent {
namespace {

// curl_global_init is not thread-safe; every client goes through this once.
void init_curl_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) throw ProviderError("libcurl: global initialisation failed");
  });
}

struct BodySink {
  std::string* body;
  size_t limit;
  bool overflow = false;
};

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto& sink = *static_cast<BodySink*>(user);
  if (sink.body->size() + size * count > sink.limit) {
    sink.overflow = true;
    return 0;  // curl stops with a write error
  }
  sink.body->append(data, size * count);
  return size * count;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto& headers = *static_cast<std::map<std::string, std::string>*>(user);
  std::string line(data, size * count);
  const auto colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    std::string value = line.substr(colon + 1);
    const auto first = value.find_first_not_of(" \t");
    const auto last = value.find_last_not_of(" \t\r\n");
    headers[name] = first == std::string::npos ? "" : value.substr(first, last - first + 1);
  } else if (line.rfind("HTTP/", 0) == 0) {
    headers.clear();  // a new response (after a redirect or 100 Continue) starts over
  }
  return size * count;
}

struct EasyDeleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
struct ListDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

// One request; throws TransportFailure when no HTTP response arrived.
struct TransportFailure {
  std::string message;
};

HttpResponse perform(const std::string& url, const std::vector<std::string>& headers, const std::string& body,
                     const HttpOptions& o) {
  std::unique_ptr<CURL, EasyDeleter> curl(curl_easy_init());
  if (!curl) throw TransportFailure{"libcurl: cannot create a handle"};
  std::unique_ptr<curl_slist, ListDeleter> list;
  auto add = [&](const std::string& h) {
    curl_slist* next = curl_slist_append(list.get(), h.c_str());
    if (!next) throw TransportFailure{"libcurl: out of memory"};
    list.release();
    list.reset(next);
  };
  add("Content-Type: application/json");
  add("Accept: application/json");
  add("Expect:");  // no 100-continue round trip for large bodies
  for (const auto& h : headers) add(h);

  HttpResponse r;
  char error[CURL_ERROR_SIZE] = {0};
  CURL* c = curl.get();
  const long timeout_ms = std::max(1L, static_cast<long>(std::llround(o.timeout_seconds * 1000)));
  const long connect_ms =
      std::max(1L, std::min(timeout_ms, static_cast<long>(std::llround(o.connect_timeout_seconds * 1000))));
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_POST, 1L);
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, list.get());
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, connect_ms);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // no SIGALRM: safe with several threads
  curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  BodySink sink{&r.body, o.max_response_bytes};
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &r.headers);
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(c, CURLOPT_USERAGENT, "tlmcraft-agent/1");
  const CURLcode rc = curl_easy_perform(c);
  if (sink.overflow)  // a misbehaving endpoint: retrying would not help
    throw ProviderError(o.label + ": the response from " + url + " exceeds " + std::to_string(o.max_response_bytes) +
                        " bytes");
  if (rc != CURLE_OK) {
    std::string why = error[0] ? error : curl_easy_strerror(rc);
    if (rc == CURLE_OPERATION_TIMEDOUT) {
      std::ostringstream os;
      os << "timed out after " << o.timeout_seconds << " s (" << why << ")";
      why = os.str();
    } else if (rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST) {
      why = "cannot connect (" + why + ")";
    }
    throw TransportFailure{why};
  }
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r.status);
  return r;
}

bool retryable(long status) { return status == 429 || (status >= 500 && status <= 599); }

std::string shorten(std::string s, size_t n) {
  if (s.size() > n) s = s.substr(0, n) + "...";
  return s;
}

}  // namespace

std::string api_error_message(const std::string& body) {
  const nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_object()) {
    if (j.contains("error")) {
      const auto& e = j["error"];
      if (e.is_string()) return e.get<std::string>();
      if (e.is_object()) {
        std::string msg = e.contains("message") && e["message"].is_string() ? e["message"].get<std::string>() : "";
        const std::string type = e.contains("type") && e["type"].is_string() ? e["type"].get<std::string>() : "";
        if (!msg.empty()) return type.empty() ? msg : msg + " (" + type + ")";
        if (!type.empty()) return type;
      }
    }
    if (j.contains("message") && j["message"].is_string()) return j["message"].get<std::string>();
    if (j.contains("detail") && j["detail"].is_string()) return j["detail"].get<std::string>();
  }
  std::string text = body;
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text.empty() ? "(empty body)" : shorten(text, 300);
}

double retry_after_seconds(const HttpResponse& r) {
  auto get = [&](const char* name) -> const std::string* {
    const auto it = r.headers.find(name);
    return it == r.headers.end() || it->second.empty() ? nullptr : &it->second;
  };
  if (const std::string* ms = get("retry-after-ms")) {
    char* end = nullptr;
    const double v = std::strtod(ms->c_str(), &end);
    if (end != ms->c_str() && *end == '\0' && v >= 0) return v / 1000.0;
  }
  if (const std::string* s = get("retry-after")) {
    char* end = nullptr;
    const double v = std::strtod(s->c_str(), &end);
    if (end != s->c_str() && *end == '\0' && v >= 0) return v;
    // An HTTP date: the delay is the time until then.
    const time_t when = curl_getdate(s->c_str(), nullptr);
    if (when >= 0) return std::max(0.0, std::difftime(when, std::time(nullptr)));
  }
  return -1;
}

HttpClient::HttpClient(HttpOptions options) : options_(std::move(options)) {
  init_curl_once();
  if (!options_.sleep)
    options_.sleep = [](double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); };
  if (options_.max_retries < 0) options_.max_retries = 0;
}

std::string HttpClient::error_text(const std::string& url, const HttpResponse& r) const {
  return options_.label + ": HTTP " + std::to_string(r.status) + " from " + url + ": " + api_error_message(r.body);
}

HttpResponse HttpClient::send(const std::string& url, const std::vector<std::string>& headers, const std::string& body,
                              int* attempts) const {
  const int total = options_.max_retries + 1;
  std::string last_problem;
  for (int attempt = 1;; ++attempt) {
    if (attempts) *attempts = attempt;
    double wanted = -1;  // server-requested delay, if any
    if (options_.limiter) {
      try {
        options_.limiter->acquire((body.size() + 3) / 4);
      } catch (const std::runtime_error& e) {
        throw ProviderError(options_.label + ": " + e.what());
      }
    }
    try {
      HttpResponse r = perform(url, headers, body, options_);
      if (!retryable(r.status)) return r;
      last_problem = "HTTP " + std::to_string(r.status) + ": " + api_error_message(r.body);
      wanted = retry_after_seconds(r);
      if (wanted > 0 && options_.limiter) options_.limiter->hold_off(std::min(wanted, options_.max_delay_seconds));
    } catch (const TransportFailure& f) {
      last_problem = f.message;
    }
    if (attempt >= total)
      throw ProviderError(options_.label + ": " + url + " failed after " + std::to_string(attempt) +
                          (attempt == 1 ? " attempt" : " attempts") + "; last: " + last_problem);
    const double backoff = options_.backoff_seconds * std::pow(2.0, attempt - 1);
    const double delay = std::min(options_.max_delay_seconds, wanted >= 0 ? wanted : backoff);
    if (options_.log)
      *options_.log << options_.label << ": " << last_problem << "; retrying in " << delay << " s (attempt "
                    << attempt + 1 << " of " << total << ")\n";
    options_.sleep(delay);
  }
}

HttpResponse HttpClient::post_json(const std::string& url, const std::vector<std::string>& headers,
                                   const std::string& body, int* attempts) const {
  HttpResponse r = send(url, headers, body, attempts);
  if (r.status < 200 || r.status > 299) throw ProviderError(error_text(url, r));
  return r;
}

}  // namespace tlmcraft::agent
