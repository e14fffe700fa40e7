// What an unpacked archive left out reaches the report, capped: the terminal has the whole listing.
#include <gtest/gtest.h>

#include <string>

#include "intake/archive_submission.h"

namespace clgrade {
namespace {

// Found by an intake corpus: the entries left out of an archive were said on the terminal only.
TEST(ArchiveSubmission, WhatWasLeftOutIsAReportsNoticesAtMostTwenty) {
  UnpackedSubmission unpacked;
  for (int i = 0; i < 25; ++i) unpacked.leftOut.push_back("f" + std::to_string(i) + ".mp4: too large");
  unpacked.moreLeftOut = 3;  // past the listing's lines
  const std::vector<std::string> notices = leftOutNotices(unpacked, "alice.zip");
  ASSERT_EQ(notices.size(), 21u);
  EXPECT_EQ(notices[0], "alice.zip: left out f0.mp4: too large");
  EXPECT_EQ(notices[20], "alice.zip: and 8 more entries left out");
  // The terminal's lines: each listed one, then the count of the rest.
  const std::vector<std::string> lines = leftOutLines(unpacked, unpacked.leftOut.size());
  ASSERT_EQ(lines.size(), 26u);
  EXPECT_EQ(lines.back(), "and 3 more entries");

  UnpackedSubmission nothing;
  EXPECT_TRUE(leftOutNotices(nothing, "bob.zip").empty());
}

}  // namespace
}  // namespace clgrade
