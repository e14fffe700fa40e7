// The runner's record (protocol/tape.h) and its replay (cl/device_step.h): what a sandboxed runner hands
// back is replayed step by step, and a record that does not fit the grading (another step, a short
// or damaged record, a buffer of another size, bytes after its end, a link) is refused, never trusted.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "../../test_env.h"
#include "cl/device_step.h"
#include "cl/guarded_buffer.h"
#include "cl/kernel_args.h"
#include "cl/launch.h"
#include "cl/program.h"
#include "grading/phase_clock.h"
#include "protocol/tape.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

std::string tapeTempPath(const std::string& name) {
  return (fs::path(::testing::TempDir()) / ("clgrade_tape_" + std::to_string(getpid()) + "_" + name)).string();
}

/// A record of `entries` (op, payload), with or without its end mark.
std::string writeRecord(const std::string& name, const std::vector<std::pair<std::string, std::string>>& entries,
                        bool end = true) {
  const std::string path = tapeTempPath(name);
  std::string err;
  auto tape = Tape::recorder(path, &err);
  EXPECT_TRUE(tape) << err;
  for (const auto& [op, payload] : entries) tape->put(Tape::Kind::Result, op, payload);
  if (end) tape->close();
  return path;
}

TEST(Tape, ReplaysWhatWasRecordedInOrder) {
  const std::string path = writeRecord("order", {{"build", "log"}, {"read", std::string(1000, 'x')}});
  std::string err;
  auto tape = Tape::player(path, &err);
  ASSERT_TRUE(tape) << err;
  EXPECT_EQ(tape->take("build").payload, "log");
  EXPECT_EQ(tape->take("read").payload, std::string(1000, 'x'));
  EXPECT_TRUE(tape->finished());
}

TEST(Tape, AnotherStepBreaksTheRecord) {
  const std::string path = writeRecord("other", {{"launch", tape::f64(1.0)}, {"read", "abc"}});
  std::string err;
  auto tape = Tape::player(path, &err);
  ASSERT_TRUE(tape);
  EXPECT_THROW(tape->take("read"), TapeMismatch);
  EXPECT_NE(tape->broken().find("expected read, found launch"), std::string::npos) << tape->broken();
  // Once broken, nothing more is taken from it and it never counts as finished.
  EXPECT_THROW(tape->take("launch"), TapeMismatch);
  EXPECT_FALSE(tape->finished());
}

TEST(Tape, RecordWithoutEndOrWithMoreStepsIsNotFinished) {
  std::string err;
  auto unfinished = Tape::player(writeRecord("noend", {{"build", ""}}, false), &err);
  ASSERT_TRUE(unfinished);
  unfinished->take("build");
  EXPECT_FALSE(unfinished->finished());

  auto longer = Tape::player(writeRecord("longer", {{"build", ""}, {"launch", tape::f64(2)}}), &err);
  ASSERT_TRUE(longer);
  longer->take("build");
  EXPECT_FALSE(longer->finished()) << "steps the grading never asked for";
}

TEST(Tape, DamagedRecordsAreRefused) {
  const std::string path = writeRecord("damaged", {{"read", std::string(64, 'y')}});
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::string err;
  // Cut in the middle of the payload.
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() - 40);
  auto cut = Tape::player(path, &err);
  ASSERT_TRUE(cut);
  EXPECT_THROW(cut->take("read"), TapeMismatch);
  // Bytes after the end mark.
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes << "more";
  auto trailing = Tape::player(path, &err);
  ASSERT_TRUE(trailing);
  trailing->take("read");
  EXPECT_FALSE(trailing->finished());
  // Not a record at all (a forged report in its place).
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "{\"tasks\":[{\"points\":5}]}";
  EXPECT_FALSE(Tape::player(path, &err));
  // A huge length field.
  std::string huge = "clgrade-tape/1\n";
  huge += '\0';
  huge += tape::u64(uint64_t(1) << 40);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << huge;
  auto big = Tape::player(path, &err);
  ASSERT_TRUE(big);
  EXPECT_THROW(big->take("read"), TapeMismatch);
}

TEST(Tape, ALinkIsNeverFollowed) {
  const std::string target = writeRecord("target", {{"build", ""}});
  const std::string link = tapeTempPath("link");
  fs::remove(link);
  fs::create_symlink(target, link);
  std::string err;
  EXPECT_FALSE(Tape::player(link, &err));
}

TEST(Tape, ValuesReadBackAndShortValuesAreMismatches) {
  const std::string bytes = tape::u64(42) + tape::f64(0.25) + tape::str("name");
  size_t at = 0;
  EXPECT_EQ(tape::readU64(bytes, &at), 42u);
  EXPECT_EQ(tape::readF64(bytes, &at), 0.25);
  EXPECT_EQ(tape::readStr(bytes, &at), "name");
  EXPECT_THROW(tape::readU64(bytes, &at), TapeMismatch);
  size_t bad = 0;
  EXPECT_THROW(tape::readStr(tape::u64(1000) + "abc", &bad), TapeMismatch);
}

/// A real device run recorded, then replayed without the device: same results, same errors.
TEST(DeviceStep, ReplayGivesTheRecordedResultsWithoutTheDevice) {
  std::string err;
  DeviceEntry entry;
  ASSERT_TRUE(chooseDevice(test::deviceSpec(), &entry, &err)) << err;
  const std::string path = tapeTempPath("device");
  const char* source = "__kernel void fill(__global float* d) { d[get_global_id(0)] = get_global_id(0); }";
  std::vector<float> recorded;
  {
    const Runtime rt(entry, Tape::recorder(path, &err));
    const BuildResult bad = buildProgram(rt, "this is not OpenCL C", "");
    EXPECT_FALSE(bad.ok);
    const BuildResult build = buildProgram(rt, source, "");
    ASSERT_TRUE(build.ok) << build.log;
    cl::Kernel k;
    ASSERT_TRUE(findKernel(rt, build, "fill", &k, &err)) << err;
    EXPECT_FALSE(findKernel(rt, build, "missing", &k, &err));
    ASSERT_TRUE(findKernel(rt, build, "fill", &k, &err));
    GuardedBuffer buffer(rt, 64 * sizeof(float), 256);
    const std::vector<float> fill(buffer.totalBytes() / sizeof(float), -1.0f);
    buffer.fillAll(rt, 2.0f);  // on the device, then overwritten by the upload below
    int made = 0;
    buffer.writeAll<float>(rt, [&](float* whole) {
      ++made;
      std::copy(fill.begin(), fill.end(), whole);
    });
    EXPECT_EQ(made, 1);
    setArg(rt, k, 0, buffer.view());
    launch1d(rt, k, 64, 16);
    EXPECT_THROW(launch1d(rt, k, 64, 7), cl::Error);  // 64 is no multiple of 7
    recorded = buffer.readAll<float>(rt, fill);
    rt.tape->close();
  }
  const Runtime replay(entry, Tape::player(path, &err));
  ASSERT_TRUE(replay.replaying());
  EXPECT_FALSE(buildProgram(replay, "this is not OpenCL C", "").ok);
  const BuildResult build = buildProgram(replay, "anything: it is not compiled", "");
  EXPECT_TRUE(build.ok);
  cl::Kernel k;
  EXPECT_TRUE(findKernel(replay, build, "fill", &k, &err));
  std::string missing;
  EXPECT_FALSE(findKernel(replay, build, "missing", &k, &missing));
  EXPECT_NE(missing.find("not found"), std::string::npos) << missing;
  EXPECT_TRUE(findKernel(replay, build, "fill", &k, &err));
  GuardedBuffer buffer(replay, 64 * sizeof(float), 256);
  const std::vector<float> fill(buffer.totalBytes() / sizeof(float), -1.0f);
  buffer.fillAll(replay, 2.0f);
  int made = 0;
  buffer.writeAll<float>(replay, [&](float* whole) {
    ++made;
    std::copy(fill.begin(), fill.end(), whole);
  });
  EXPECT_EQ(made, 0) << "a replay has nothing to upload: the data is not laid out";
  setArg(replay, k, 0, buffer.view());
  launch1d(replay, k, 64, 16);
  try {
    launch1d(replay, k, 64, 7);
    ADD_FAILURE() << "the recorded OpenCL error was not thrown again";
  } catch (const cl::Error& e) {
    EXPECT_NE(e.err(), CL_SUCCESS);
  }
  EXPECT_EQ(buffer.readAll<float>(replay, fill), recorded);
  // The guards kept the fill: the record held only the blocks the kernel wrote.
  EXPECT_EQ(recorded[buffer.frontBytes() / sizeof(float) + 5], 5.0f);
  EXPECT_EQ(recorded.front(), -1.0f);
  EXPECT_TRUE(replay.tape->finished());
}

TEST(DeviceStep, ABufferOfAnotherSizeIsAMismatch) {
  std::string err;
  DeviceEntry entry;
  ASSERT_TRUE(chooseDevice(test::deviceSpec(), &entry, &err)) << err;
  // A record whose read hands back fewer bytes than the buffer holds (a lying runner).
  const std::string path = writeRecord("short_read", {{"buffer", ""}, {"read delta", std::string(8, '\0')}});
  const Runtime replay(entry, Tape::player(path, &err));
  GuardedBuffer buffer(replay, 64 * sizeof(float), 256);
  EXPECT_THROW(buffer.readAll<float>(replay, std::vector<float>(buffer.totalBytes() / sizeof(float))), TapeMismatch);
}

}  // namespace
}  // namespace clgrade

namespace clgrade {
namespace {

/// Phase times come from the runner's record: a forged one (a name that would drive the instructor's
/// terminal when `clgrade profile` prints it, figures that are no time) is not taken as it stands.
TEST(PhaseClock, ForgedPhaseTimesAreNotTakenAsTheyStand) {
  std::string err;
  DeviceEntry entry;
  ASSERT_TRUE(chooseDevice(test::deviceSpec(), &entry, &err)) << err;
  const std::string forged = tape::f64(std::nan("")) + tape::u64(3) + tape::str("builds\x1b]52;c;ZXZpbA==\a") +
                             tape::f64(1.0) + tape::str("inputs") + tape::f64(-5.0) + tape::str("timed launches") +
                             tape::f64(2.5);
  const std::string path = writeRecord("phases", {{"phase time", forged}});
  const Runtime replay(entry, Tape::player(path, &err));
  PhaseClock clock(replay);
  bool ran = false;
  clock.time("cases", [&] { ran = true; });
  EXPECT_TRUE(ran);
  ASSERT_EQ(clock.phases().size(), 1u);
  const PhaseTime& p = clock.phases()[0];
  EXPECT_EQ(p.seconds, 0);
  ASSERT_EQ(p.within.size(), 2u);
  EXPECT_EQ(p.within[0], (std::pair<std::string, double>{"inputs", 0}));
  EXPECT_EQ(p.within[1], (std::pair<std::string, double>{"timed launches", 2.5}));
}

}  // namespace
}  // namespace clgrade

namespace clgrade {
namespace {

/// The keeper follows a record while the runner writes it: every entry is taken as it comes, and
/// the end of the file is the end only once the runner has stopped writing.
TEST(Tape, AFollowedRecordIsReplayedWhileItIsWritten) {
  const std::string path = tapeTempPath("followed");
  std::remove(path.c_str());
  std::atomic<bool> writing{true};
  std::atomic<int> written{0};
  std::thread runner([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));  // the keeper waits for the file too
    std::string err;
    auto tape = Tape::recorder(path, &err);
    for (int i = 0; i < 5; ++i) {
      tape->put(Tape::Kind::Result, "read delta", std::string(100000 + i, char('a' + i)));
      if (i == 2) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      ++written;
    }
    tape->close();
    writing = false;
  });
  std::string err;
  auto tape = Tape::player(path, &err, [&] { return writing.load(); });
  ASSERT_TRUE(tape) << err;
  for (int i = 0; i < 5; ++i) EXPECT_EQ(tape->take("read delta").payload, std::string(100000 + i, char('a' + i)));
  EXPECT_TRUE(tape->finished());
  runner.join();
  EXPECT_EQ(written, 5);
}

TEST(Tape, AFollowedRecordThatStopsMidWayDoesNotFit) {
  const std::string path = tapeTempPath("followed_stopped");
  std::atomic<bool> writing{true};
  std::thread runner([&] {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    std::fputs("clgrade-tape/1\n", f);
    std::fputc(0, f);  // an entry begun, never finished: the runner was killed
    std::fclose(f);
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
    writing = false;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::string err;
  auto tape = Tape::player(path, &err, [&] { return writing.load(); });
  ASSERT_TRUE(tape) << err;
  EXPECT_THROW(tape->take("build"), TapeMismatch);
  runner.join();
  // No record at all once the runner has ended: said, not waited for.
  std::string none;
  EXPECT_FALSE(Tape::player(tapeTempPath("never_written"), &none, [] { return false; }));
  EXPECT_EQ(none, "the runner left no record");
}

/// A FIFO in the record's place never holds the keeper, followed or not.
TEST(Tape, AFifoInsteadOfARecordIsRefusedWithoutWaiting) {
  const std::string path = tapeTempPath("fifo");
  std::remove(path.c_str());
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  std::string err;
  EXPECT_FALSE(Tape::player(path, &err, [] { return true; }));
  EXPECT_EQ(err, "the runner left no record");
  std::remove(path.c_str());
}

}  // namespace
}  // namespace clgrade
