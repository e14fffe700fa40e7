// The CPUs a cgroup quota lends (sandbox/cgroup.h): a container started with --cpus 4 shows every
// core of the host to sched_getaffinity, and a batch counted its jobs from those. Group folders
// written by hand, v2's cpu.max and v1's cfs quota and period.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "../../scratch.h"
#include "sandbox/cgroup.h"
#include "util/files.h"

namespace clgrade {
namespace {

namespace fs = std::filesystem;

/// A group folder `name` holding `files` (name, text).
std::string group(const std::string& name, const std::vector<std::pair<std::string, std::string>>& files) {
  const fs::path dir = test::freshFolder("clgrade_cpu_quota", name);
  for (const auto& [file, text] : files) {
    std::string err;
    EXPECT_TRUE(writeFileAtomically((dir / file).string(), text, &err)) << err;
  }
  return dir.string();
}

TEST(CpuQuota, CgroupV2CpuMaxRoundedUp) {
  EXPECT_EQ(cpuQuotaCoresOf({group("v2four", {{"cpu.max", "400000 100000\n"}})}), 4);
  EXPECT_EQ(cpuQuotaCoresOf({group("v2half", {{"cpu.max", "150000 100000\n"}})}), 2);
  EXPECT_EQ(cpuQuotaCoresOf({group("v2small", {{"cpu.max", "10000 100000\n"}})}), 1);
  EXPECT_EQ(cpuQuotaCoresOf({group("v2max", {{"cpu.max", "max 100000\n"}})}), 0) << "not bounded";
}

TEST(CpuQuota, CgroupV1QuotaOverPeriod) {
  EXPECT_EQ(cpuQuotaCoresOf({group("v1three", {{"cpu.cfs_quota_us", "300000\n"}, {"cpu.cfs_period_us", "100000\n"}})}),
            3);
  EXPECT_EQ(cpuQuotaCoresOf({group("v1none", {{"cpu.cfs_quota_us", "-1\n"}, {"cpu.cfs_period_us", "100000\n"}})}), 0);
  EXPECT_EQ(cpuQuotaCoresOf({group("v1noperiod", {{"cpu.cfs_quota_us", "300000\n"}})}), 0) << "nothing to divide by";
}

TEST(CpuQuota, TheLeastOfAGroupAndItsParents) {
  const std::string own = group("own", {{"cpu.max", "max 100000\n"}});
  const std::string parent = group("parent", {{"cpu.max", "200000 100000\n"}});
  const std::string root = group("root", {{"cpu.max", "800000 100000\n"}});
  EXPECT_EQ(cpuQuotaCoresOf({own, parent, root}), 2);
  EXPECT_EQ(cpuQuotaCoresOf({own}), 0);
  EXPECT_EQ(cpuQuotaCoresOf({group("empty", {}), "/no/such/group"}), 0) << "nothing to read: not bounded";
}

}  // namespace
}  // namespace clgrade
