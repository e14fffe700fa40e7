// The opt-in timeline (util/trace.h): spans in Chrome's trace format, and a child's spans taken over
// field by field.
#include "util/trace.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <vector>

namespace clgrade {
namespace {

namespace fs = std::filesystem;

/// The events of a trace file (its closing bracket may be missing).
nlohmann::json events(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == ',')) s.pop_back();
  return nlohmann::json::parse(s + "]");
}

class Trace : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("clgrade-trace-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    file_ = (dir_ / "trace.json").string();
  }
  void TearDown() override {
    unsetenv(trace::kVariable);
    fs::remove_all(dir_);
  }
  fs::path dir_;
  std::string file_;
};

TEST_F(Trace, NothingIsWrittenWithoutTheVariable) {
  unsetenv(trace::kVariable);
  EXPECT_FALSE(trace::enabled());
  { const trace::Span span("builds", "work"); }
  EXPECT_FALSE(fs::exists(file_));
  EXPECT_TRUE(trace::childEnvironment(file_).empty());
}

// A batch's first spans end at once (its sandbox probes, one a GPU): each looked at an empty file
// and wrote an opening bracket, and the trace was no longer JSON.
TEST_F(Trace, FirstSpansAtOnceWriteOneOpeningBracket) {
  setenv(trace::kVariable, file_.c_str(), 1);
  for (int round = 0; round < 20; ++round) {
    fs::remove(file_);
    std::atomic<int> waiting{8};
    std::vector<std::thread> threads;
    for (int i = 0; i < 8; ++i)
      threads.emplace_back([&waiting] {
        --waiting;
        while (waiting > 0) std::this_thread::yield();  // every span ends at the same moment
        const trace::Span span("sandbox probe", "process");
      });
    for (std::thread& t : threads) t.join();
    nlohmann::json e;
    ASSERT_NO_THROW(e = events(file_)) << "round " << round;
    EXPECT_EQ(e.size(), 8u);
  }
}

TEST_F(Trace, SpansAreCompleteEventsOfThisProcess) {
  setenv(trace::kVariable, file_.c_str(), 1);
  ASSERT_TRUE(trace::enabled());
  {
    const trace::Span outer("sweep", "phase");
    { const trace::Span inner("builds", "work"); }
  }
  const nlohmann::json e = events(file_);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0]["name"], "builds");  // the inner span ends first
  EXPECT_EQ(e[1]["name"], "sweep");
  EXPECT_EQ(e[1]["ph"], "X");
  EXPECT_EQ(e[1]["pid"], getpid());
  EXPECT_LE(e[1]["ts"].get<long long>(), e[0]["ts"].get<long long>());
  EXPECT_GE(e[1]["dur"].get<long long>(), e[0]["dur"].get<long long>());
  EXPECT_EQ(trace::childEnvironment("/s/trace.json").at(trace::kVariable), "/s/trace.json");
}

TEST_F(Trace, AChildsSpansAreCheckedBeforeTheyAreTakenOver) {
  setenv(trace::kVariable, file_.c_str(), 1);
  const std::string child = (dir_ / "child.json").string();
  {
    std::ofstream out(child);
    out << "[\n"
        << R"({"name":"timing","cat":"phase","ph":"X","ts":10,"dur":5,"pid":1,"tid":2},)"
        << "\n"
        << R"({"name":"\u001b[31mred","cat":"phase","ph":"X","ts":10,"dur":5,"pid":1,"tid":2},)"
        << "\n"
        << R"({"name":"late","cat":"phase","ph":"X","ts":-1,"dur":5,"pid":1,"tid":2},)"
        << "\n"
        << R"({"name":"instant","cat":"phase","ph":"i","ts":10,"pid":1,"tid":2},)"
        << "\n"
        << R"({"name":"typed","cat":"phase","ph":1,"ts":10,"dur":5,"pid":1,"tid":2},)"
        << "\n"
        << R"({"name":"typed","cat":"phase","ph":"X","ts":"10","dur":5,"pid":1,"tid":2},)"
        << "\n"
        << R"({"name":"extra","cat":"phase","ph":"X","ts":10,"dur":5,"pid":1,"tid":2,"args":{"x":1}},)"
        << "\n"
        // Forged times: before the child started, past its end, a duration that overflows.
        << R"({"name":"before","cat":"phase","ph":"X","ts":2,"dur":5,"pid":1,"tid":2},)"
        << "\n"
        << R"({"name":"after","cat":"phase","ph":"X","ts":90,"dur":20,"pid":1,"tid":2},)"
        << "\n"
        << R"({"name":"huge","cat":"phase","ph":"X","ts":10,"dur":9223372036854775807,"pid":1,"tid":2},)"
        << "\n"
        << "not json at all\n";
  }
  trace::adoptChildTrace(child, "runner separable", 5, 100);
  EXPECT_FALSE(fs::exists(child));
  const nlohmann::json e = events(file_);
  ASSERT_EQ(e.size(), 3u) << e.dump();
  EXPECT_EQ(e[0]["ph"], "M");
  EXPECT_EQ(e[0]["args"]["name"], "runner separable");
  const auto pid = e[0]["pid"];
  EXPECT_EQ(e[1]["name"], "timing");
  EXPECT_EQ(e[1]["cat"], "sandboxed:phase") << "a sandboxed child's span is never taken for the keeper's";
  EXPECT_EQ(e[1]["pid"], pid);  // the child's own pid is not kept: namespaces repeat them
  EXPECT_EQ(e[2]["name"], "extra");
  EXPECT_FALSE(e[2].contains("args"));
}

// A runner's trace is taken over in one write: its spans stay together however many other jobs end
// spans meanwhile (one write a span made the batch's process a step of the file's lock per span).
TEST_F(Trace, AChildsSpansArriveInOnePiece) {
  setenv(trace::kVariable, file_.c_str(), 1);
  const std::string child = (dir_ / "child.json").string();
  constexpr int kSpans = 2000;
  {
    std::ofstream out(child);
    out << "[\n";
    for (int i = 0; i < kSpans; ++i)
      out << R"({"name":"step","cat":"device","ph":"X","ts":)" << 10 + i << R"(,"dur":1,"pid":1,"tid":2},)"
          << "\n";
  }
  std::atomic<bool> adopted{false};
  std::thread others([&] {
    while (!adopted) {
      const trace::Span span("judging", "work");
    }
  });
  trace::adoptChildTrace(child, "runner");
  adopted = true;
  others.join();
  const nlohmann::json e = events(file_);
  size_t first = e.size(), last = 0, steps = 0;
  for (size_t i = 0; i < e.size(); ++i)
    if (e[i]["name"] == "step") {
      first = std::min(first, i);
      last = i;
      ++steps;
    }
  ASSERT_EQ(steps, size_t(kSpans));
  EXPECT_EQ(last - first + 1, size_t(kSpans)) << "another span came between the child's";
  ASSERT_GT(first, 0u);
  EXPECT_EQ(e[first - 1]["ph"], "M");  // its process's name just before them
}

TEST_F(Trace, AChildsLinkIsNotFollowed) {
  setenv(trace::kVariable, file_.c_str(), 1);
  const std::string target = (dir_ / "elsewhere.json").string();
  {
    std::ofstream out(target);
    out << R"({"name":"secret","cat":"phase","ph":"X","ts":10,"dur":5,"pid":1,"tid":2},)"
        << "\n";
  }
  const std::string child = (dir_ / "child.json").string();
  fs::create_symlink(target, child);
  trace::adoptChildTrace(child, "runner");
  EXPECT_FALSE(fs::exists(file_));
  EXPECT_TRUE(fs::exists(target));
}

}  // namespace
}  // namespace clgrade
