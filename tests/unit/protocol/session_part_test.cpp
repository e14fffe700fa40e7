// The counters session a runner of several tasks runs after their parts (protocol/session_part.h).
#include "protocol/session_part.h"

#include <gtest/gtest.h>

namespace clgrade {
namespace {

TEST(SessionPart, ReadsWhatTheKeeperWrote) {
  const std::vector<std::string> argv{"/opt/clgrade", "hwsession", "/s/hardware-input/kernels", "--task", "a b\n\"c\""};
  std::string folder, err;
  std::vector<std::string> read;
  ASSERT_TRUE(readSessionPartText(sessionPartText("/s/tasks/session", argv), &folder, &read, &err)) << err;
  EXPECT_EQ(folder, "/s/tasks/session");
  EXPECT_EQ(read, argv);
}

TEST(SessionPart, RefusesWhatIsNotAHwsessionCommandLine) {
  std::string folder, err;
  std::vector<std::string> read;
  EXPECT_FALSE(readSessionPartText("{\"folder\": \"/s\"}", &folder, &read, &err));
  EXPECT_FALSE(readSessionPartText(sessionPartText("/s", {"/opt/clgrade", "run-task", "x"}), &folder, &read, &err));
  EXPECT_NE(err.find("hwsession"), std::string::npos) << err;
  EXPECT_FALSE(readSessionPartText("not json", &folder, &read, &err));
}

}  // namespace
}  // namespace clgrade
