// HttpClient against the scripted loopback server: retry policy, backoff delays (recorded
// through the sleep hook instead of slept), Retry-After, error messages.
#include <gtest/gtest.h>

#include <cstdlib>

#include "agent/providers/http_client.h"
#include "scripted_http_server.h"

namespace tlmcraft::agent {
namespace {

using test::ScriptedHttpServer;
using test::ScriptedResponse;

struct NoProxy {
  NoProxy() { setenv("NO_PROXY", "127.0.0.1,localhost", 1); }
};
const NoProxy no_proxy;

HttpOptions fast_options(std::vector<double>* delays) {
  HttpOptions o;
  o.timeout_seconds = 5;
  o.max_retries = 3;
  o.backoff_seconds = 0.1;
  o.label = "test";
  o.sleep = [delays](double s) { delays->push_back(s); };
  return o;
}

TEST(HttpClient, RetriesWith429And5xxHonouringRetryAfterThenDoublingBackoff) {
  ScriptedHttpServer server;
  server.push(ScriptedResponse{429, R"({"error":{"message":"slow down"}})", {{"Retry-After", "7"}}, 0});
  server.push(503, "busy");
  server.push(500, "oops");
  server.push(200, R"({"ok":true})");
  std::vector<double> delays;
  HttpClient client(fast_options(&delays));
  int attempts = 0;
  const HttpResponse r = client.post_json(server.url() + "/x", {"X-Test: 1"}, R"({"a":1})", &attempts);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, R"({"ok":true})");
  EXPECT_EQ(attempts, 4);
  // Retry 1 waits what Retry-After asks (7 s); retries 2 and 3 back off 0.1 * 2^(n-1):
  // the second retry (attempt 3) 0.2 s, the third (attempt 4) 0.4 s.
  ASSERT_EQ(delays.size(), 3u);
  EXPECT_DOUBLE_EQ(delays[0], 7.0);
  EXPECT_DOUBLE_EQ(delays[1], 0.2);
  EXPECT_DOUBLE_EQ(delays[2], 0.4);
  const auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 4u);
  for (const auto& q : reqs) {
    EXPECT_EQ(q.method, "POST");
    EXPECT_EQ(q.path, "/x");
    EXPECT_EQ(q.body, R"({"a":1})");
    EXPECT_EQ(q.headers.at("x-test"), "1");
    EXPECT_EQ(q.headers.at("content-type"), "application/json");
  }
}

TEST(HttpClient, RetryAfterIsCappedAndRetryAfterMsWins) {
  ScriptedHttpServer server;
  server.push(ScriptedResponse{429, "{}", {{"Retry-After", "1000"}}, 0});
  server.push(ScriptedResponse{429, "{}", {{"retry-after-ms", "250"}, {"Retry-After", "3"}}, 0});
  server.push(200, "{}");
  std::vector<double> delays;
  HttpOptions o = fast_options(&delays);
  o.max_delay_seconds = 60;
  HttpClient client(o);
  EXPECT_EQ(client.post_json(server.url(), {}, "{}").status, 200);
  ASSERT_EQ(delays.size(), 2u);
  EXPECT_DOUBLE_EQ(delays[0], 60.0);   // 1000 s asked, capped at max_delay_seconds
  EXPECT_DOUBLE_EQ(delays[1], 0.25);   // 250 ms beats the coarser Retry-After: 3
}

TEST(HttpClient, ExhaustedRetriesNameAttemptsAndLastProblem) {
  ScriptedHttpServer server;
  for (int i = 0; i < 3; ++i) server.push(500, R"({"error":{"message":"model crashed","type":"server_error"}})");
  std::vector<double> delays;
  HttpOptions o = fast_options(&delays);
  o.max_retries = 2;
  HttpClient client(o);
  try {
    client.post_json(server.url() + "/v1/chat/completions", {}, "{}");
    FAIL() << "expected ProviderError";
  } catch (const ProviderError& e) {
    EXPECT_EQ(std::string(e.what()), "test: " + server.url() +
                                         "/v1/chat/completions failed after 3 attempts; last: HTTP 500: model crashed "
                                         "(server_error)");
  }
  EXPECT_EQ(server.requests().size(), 3u);
  EXPECT_EQ(delays.size(), 2u);
}

TEST(HttpClient, ClientErrorIsNotRetriedAndCarriesTheApiMessage) {
  ScriptedHttpServer server;
  server.push(403, R"({"error":{"message":"no access to model x"}})");
  std::vector<double> delays;
  HttpClient client(fast_options(&delays));
  try {
    client.post_json(server.url() + "/m", {}, "{}");
    FAIL() << "expected ProviderError";
  } catch (const ProviderError& e) {
    EXPECT_EQ(std::string(e.what()), "test: HTTP 403 from " + server.url() + "/m: no access to model x");
  }
  EXPECT_EQ(server.requests().size(), 1u);
  EXPECT_TRUE(delays.empty());
}

TEST(HttpClient, ConnectionRefusedIsRetriedThenReported) {
  int port = 0;
  {
    ScriptedHttpServer gone;  // bind a free port, then close it
    port = gone.port();
  }
  std::vector<double> delays;
  HttpOptions o = fast_options(&delays);
  o.max_retries = 1;
  HttpClient client(o);
  try {
    client.post_json("http://127.0.0.1:" + std::to_string(port) + "/v1", {}, "{}");
    FAIL() << "expected ProviderError";
  } catch (const ProviderError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("failed after 2 attempts"), std::string::npos) << what;
    EXPECT_NE(what.find("cannot connect"), std::string::npos) << what;
  }
  EXPECT_EQ(delays.size(), 1u);
}

TEST(HttpClient, RequestTimeoutEndsInAClearError) {
  ScriptedHttpServer server;
  server.push(ScriptedResponse{200, "{}", {}, 3000});
  std::vector<double> delays;
  HttpOptions o = fast_options(&delays);
  o.timeout_seconds = 0.3;
  o.max_retries = 0;
  HttpClient client(o);
  try {
    client.post_json(server.url(), {}, "{}");
    FAIL() << "expected ProviderError";
  } catch (const ProviderError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("failed after 1 attempt;"), std::string::npos) << what;
    EXPECT_NE(what.find("timed out after 0.3 s"), std::string::npos) << what;
  }
}

TEST(HttpClient, OversizedResponseIsCutOffWithoutRetry) {
  ScriptedHttpServer server;
  server.push(200, std::string(5000, 'x'));
  std::vector<double> delays;
  HttpOptions o = fast_options(&delays);
  o.max_response_bytes = 1000;
  HttpClient client(o);
  try {
    client.post_json(server.url() + "/big", {}, "{}");
    FAIL() << "expected ProviderError";
  } catch (const ProviderError& e) {
    EXPECT_EQ(std::string(e.what()), "test: the response from " + server.url() + "/big exceeds 1000 bytes");
  }
  EXPECT_EQ(server.requests().size(), 1u);
  EXPECT_TRUE(delays.empty());
}

TEST(HttpClient, ApiErrorMessageShapes) {
  EXPECT_EQ(api_error_message(R"({"error":{"message":"bad key","type":"invalid_request_error"}})"),
            "bad key (invalid_request_error)");
  EXPECT_EQ(api_error_message(R"({"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}})"),
            "invalid x-api-key (authentication_error)");
  EXPECT_EQ(api_error_message(R"({"error":"model not loaded"})"), "model not loaded");
  EXPECT_EQ(api_error_message(R"({"message":"Not Found"})"), "Not Found");
  EXPECT_EQ(api_error_message("<html>\nBad Gateway</html>"), "<html> Bad Gateway</html>");
  EXPECT_EQ(api_error_message(""), "(empty body)");
  EXPECT_EQ(api_error_message(std::string(400, 'x')), std::string(300, 'x') + "...");
}

TEST(HttpClient, RetryAfterParsing) {
  HttpResponse r;
  EXPECT_LT(retry_after_seconds(r), 0);
  r.headers["retry-after"] = "2.5";
  EXPECT_DOUBLE_EQ(retry_after_seconds(r), 2.5);
  r.headers["retry-after"] = "Wed, 21 Oct 2015 07:28:00 GMT";  // in the past: no wait
  EXPECT_DOUBLE_EQ(retry_after_seconds(r), 0.0);
  r.headers["retry-after"] = "soon";
  EXPECT_LT(retry_after_seconds(r), 0);
}

}  // namespace
}  // namespace tlmcraft::agent
