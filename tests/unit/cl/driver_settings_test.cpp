#include "cl/driver_settings.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "sandbox/sandbox.h"
#include "util/glibc_tunables.h"

namespace clgrade {
namespace {

/// The variable as it was, put back when the test ends (other tests of this process see the same).
class SavedVariable {
 public:
  explicit SavedVariable(const char* name) : name_(name) {
    const char* v = std::getenv(name);
    had_ = v != nullptr;
    if (had_) value_ = v;
  }
  ~SavedVariable() {
    if (had_)
      setenv(name_, value_.c_str(), 1);
    else
      unsetenv(name_);
  }

 private:
  const char* name_;
  bool had_ = false;
  std::string value_;
};

TEST(DriverSettings, OneCudaConnectionUnlessTheUserChoseAnother) {
  const SavedVariable saved("CUDA_DEVICE_MAX_CONNECTIONS");
  unsetenv("CUDA_DEVICE_MAX_CONNECTIONS");
  applyDriverSettings();
  ASSERT_NE(std::getenv("CUDA_DEVICE_MAX_CONNECTIONS"), nullptr);
  EXPECT_STREQ(std::getenv("CUDA_DEVICE_MAX_CONNECTIONS"), "1");
  setenv("CUDA_DEVICE_MAX_CONNECTIONS", "4", 1);
  applyDriverSettings();
  EXPECT_STREQ(std::getenv("CUDA_DEVICE_MAX_CONNECTIONS"), "4");
}

TEST(DriverSettings, HugePagesForTheAllocatorAddedToWhatTheUserSet) {
  const SavedVariable saved("GLIBC_TUNABLES");
  unsetenv("GLIBC_TUNABLES");
  applyDriverSettings();
  ASSERT_NE(std::getenv("GLIBC_TUNABLES"), nullptr);
  EXPECT_STREQ(std::getenv("GLIBC_TUNABLES"), "glibc.malloc.hugetlb=1");
  // Another tunable of the user's is kept, the huge pages added; one applied twice changes nothing.
  setenv("GLIBC_TUNABLES", "glibc.malloc.check=3", 1);
  applyDriverSettings();
  applyDriverSettings();
  EXPECT_STREQ(std::getenv("GLIBC_TUNABLES"), "glibc.malloc.check=3:glibc.malloc.hugetlb=1");
  // The user's own choice of huge pages stays.
  setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=0", 1);
  applyDriverSettings();
  EXPECT_STREQ(std::getenv("GLIBC_TUNABLES"), "glibc.malloc.hugetlb=0");
}

TEST(DriverSettings, ASandboxedRunnerGetsTheSameSettings) {
  // A runner's environment is built from nothing: the settings must cross the wall, or the runners,
  // which are most of a batch's GPU processes, would make contexts the slow way and fault their
  // planes in 4 KiB at a time.
  const SavedVariable connections("CUDA_DEVICE_MAX_CONNECTIONS"), tunables("GLIBC_TUNABLES");
  unsetenv("CUDA_DEVICE_MAX_CONNECTIONS");
  setenv("GLIBC_TUNABLES", "glibc.malloc.check=3", 1);
  applyDriverSettings();
  const std::map<std::string, std::string> env = openclEnvironment("/tmp/scratch");
  ASSERT_TRUE(env.count("CUDA_DEVICE_MAX_CONNECTIONS"));
  EXPECT_EQ(env.at("CUDA_DEVICE_MAX_CONNECTIONS"), "1");
  // The huge pages alone: the user's other tunables stay outside the sandbox.
  ASSERT_TRUE(env.count("GLIBC_TUNABLES"));
  EXPECT_EQ(env.at("GLIBC_TUNABLES"), "glibc.malloc.hugetlb=1");
  setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=0:glibc.malloc.check=3", 1);
  applyDriverSettings();
  EXPECT_EQ(openclEnvironment("/tmp/scratch").at("GLIBC_TUNABLES"), "glibc.malloc.hugetlb=0");
}

TEST(DriverSettings, TheHugePagesEntryIsFoundByItsWholeName) {
  const SavedVariable saved("GLIBC_TUNABLES");
  unsetenv("GLIBC_TUNABLES");
  EXPECT_EQ(hugePagesTunable(), "");
  setenv("GLIBC_TUNABLES", "x.glibc.malloc.hugetlb=0", 1);  // another name that ends so
  EXPECT_EQ(hugePagesTunable(), "");
  setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=0:glibc.malloc.check=3:glibc.malloc.hugetlb=1", 1);
  EXPECT_EQ(hugePagesTunable(), "glibc.malloc.hugetlb=1") << "the last, as glibc applies it";
}

}  // namespace
}  // namespace clgrade
