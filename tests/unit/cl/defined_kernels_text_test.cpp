// What a "kernel not found" message says of the kernels a program defines.
#include <gtest/gtest.h>

#include <string>

#include "cl/program.h"

namespace clgrade {
namespace {

TEST(DefinedKernelsText, SaysAFewAndCountsTheRest) {
  EXPECT_EQ(definedKernelsText(""), "no kernels");
  EXPECT_EQ(definedKernelsText("Convolution ConvHorizontal"), "Convolution ConvHorizontal");
  // Found by an intake corpus: 3800 kernels of 250 characters in each file, every name in every
  // case's message, made 387 MB of reports for one submission.
  std::string many;
  for (int i = 0; i < 3800; ++i) many += (i ? " k" : "k") + std::to_string(i) + "_" + std::string(240, 'x');
  const std::string text = definedKernelsText(many);
  EXPECT_LT(text.size(), 1000u) << text.size();
  EXPECT_EQ(text.rfind("k0_" + std::string(61, 'x') + "... k1_", 0), 0u) << text.substr(0, 200);
  EXPECT_NE(text.find(" and 3792 more"), std::string::npos) << text;
}

}  // namespace
}  // namespace clgrade
