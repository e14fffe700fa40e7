#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "util/side_by_side.h"

namespace clgrade {
namespace {

TEST(SideBySide, EveryPieceRunsOnceAndNoMoreThanJobsAtOnce) {
  std::vector<std::atomic<int>> calls(9);
  std::atomic<int> running{0}, most{0};
  forEachSideBySide(calls.size(), 3, [&](size_t i) {
    const int now = ++running;
    for (int seen = most; now > seen && !most.compare_exchange_weak(seen, now);) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    ++calls[i];
    --running;
  });
  for (const std::atomic<int>& c : calls) EXPECT_EQ(c, 1);
  EXPECT_LE(most, 3);
  EXPECT_GE(most, 2) << "the pieces did not run side by side";
}

TEST(SideBySide, OneJobRunsInOrderOnThisThread) {
  std::vector<size_t> order;
  const std::thread::id here = std::this_thread::get_id();
  forEachSideBySide(4, 1, [&](size_t i) {
    EXPECT_EQ(std::this_thread::get_id(), here);
    order.push_back(i);
  });
  EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 3}));
}

TEST(SideBySide, AnExceptionComesBackAfterTheOthersFinished) {
  std::atomic<int> finished{0};
  EXPECT_THROW(forEachSideBySide(6, 3,
                                 [&](size_t i) {
                                   if (i == 1) throw std::runtime_error("piece 1");
                                   std::this_thread::sleep_for(std::chrono::milliseconds(20));
                                   ++finished;
                                 }),
               std::runtime_error);
  EXPECT_EQ(finished, 5);
}

}  // namespace
}  // namespace clgrade
