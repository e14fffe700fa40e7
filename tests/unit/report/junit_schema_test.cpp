// junit.xml against the rules of Jenkins/xunit's junit-10.xsd (as ../shared/platforms.md states them;
// tests/data/junit-10.xsd is the same as an XSD for xmllint on a real grade): a structural check
// written from those rules, which must pass for clgrade's output and fail for what broke them.
#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "report/junit.h"
#include "report_fixture.h"

namespace clgrade {
namespace {

using Names = std::set<std::string>;

class Junit10 {
 public:
  std::vector<std::string> problems;

  void check(const std::string& xml) {
    tinyxml2::XMLDocument doc;
    if (doc.Parse(xml.c_str()) != tinyxml2::XML_SUCCESS) {
      problems.push_back(std::string("not XML: ") + doc.ErrorStr());
      return;
    }
    const tinyxml2::XMLElement* root = doc.RootElement();
    if (std::string(root->Name()) == "testsuite") return testsuite(root);
    if (std::string(root->Name()) != "testsuites") return problem(root, "the root is neither testsuites nor testsuite");
    attributes(root, {}, {"name", "time", "tests", "failures", "errors"});
    for (auto* c = root->FirstChildElement(); c; c = c->NextSiblingElement()) {
      if (std::string(c->Name()) != "testsuite")
        problem(c, "only testsuite elements go in testsuites");
      else
        testsuite(c);
    }
  }

 private:
  void problem(const tinyxml2::XMLElement* e, const std::string& what) {
    problems.push_back("line " + std::to_string(e->GetLineNum()) + " <" + e->Name() + ">: " + what);
  }

  void attributes(const tinyxml2::XMLElement* e, const Names& required, const Names& allowed) {
    for (const std::string& name : required)
      if (!e->Attribute(name.c_str())) problem(e, "no " + name + " attribute");
    for (auto* a = e->FirstAttribute(); a; a = a->Next()) {
      const std::string name = a->Name();
      if (!allowed.count(name) && !required.count(name)) problem(e, "attribute " + name + " is not allowed");
      if (name == "time" && !std::regex_match(std::string(a->Value()), std::regex("[0-9]+(\\.[0-9]{1,3})?")))
        problem(e, "time '" + std::string(a->Value()) + "' is not digits with up to 3 decimals");
      if ((name == "tests" || name == "failures" || name == "errors" || name == "skipped") &&
          !std::regex_match(std::string(a->Value()), std::regex("[0-9]+")))
        problem(e, name + " is not a count");
    }
  }

  void children(const tinyxml2::XMLElement* e, const Names& allowed) {
    for (auto* c = e->FirstChildElement(); c; c = c->NextSiblingElement())
      if (!allowed.count(c->Name())) problem(c, std::string("not allowed in <") + e->Name() + ">");
  }

  void testsuite(const tinyxml2::XMLElement* e) {
    attributes(e, {"name", "tests", "failures", "errors"},
               {"skipped", "time", "timestamp", "hostname", "id", "package", "file", "log", "url", "version", "group"});
    children(e, {"testsuite", "properties", "testcase", "system-out", "system-err"});
    for (auto* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string name = c->Name();
      if (name == "testsuite") testsuite(c);
      if (name == "testcase") testcase(c);
      if (name == "properties") {
        children(c, {"property"});
        for (auto* p = c->FirstChildElement("property"); p; p = p->NextSiblingElement("property"))
          attributes(p, {"name", "value"}, {});
      }
    }
  }

  void testcase(const tinyxml2::XMLElement* e) {
    attributes(e, {"name"}, {"time", "classname", "group"});
    children(e, {"skipped", "error", "failure", "system-out", "system-err", "rerunFailure", "rerunError",
                 "flakyFailure", "flakyError"});
    for (const char* outcome : {"skipped", "error", "failure"})
      for (auto* c = e->FirstChildElement(outcome); c; c = c->NextSiblingElement(outcome)) {
        attributes(c, {}, {"type", "message"});
        children(c, {});
      }
  }
};

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

TEST(Junit10, ClgradesOutputFollowsTheRules) {
  for (const GradeReport& r : {reporttest::richReport(), reporttest::overriddenReport()}) {
    Junit10 check;
    check.check(junitXml(r));
    EXPECT_TRUE(check.problems.empty()) << joined(check.problems);
  }
}

TEST(Junit10, TheCheckCatchesWhatBrokeTheRules) {
  // What clgrade wrote before: properties and time="0" inside a testcase, skipped on testsuites.
  const std::string before =
      "<testsuites name=\"x\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\" time=\"1.2345\">\n"
      "  <testsuite name=\"t\" tests=\"1\" failures=\"0\" errors=\"0\">\n"
      "    <testcase classname=\"t\" name=\"c\" file=\"k.cl\"><properties><property name=\"p\" "
      "value=\"1\"/></properties>"
      "<skipped message=\"m\" reason=\"r\"/></testcase>\n"
      "  </testsuite>\n"
      "  <testcase name=\"stray\"/>\n"
      "</testsuites>\n";
  Junit10 check;
  check.check(before);
  const std::string all = joined(check.problems);
  for (const char* expected : {"attribute skipped is not allowed", "time '1.2345'", "attribute file is not allowed",
                               "<properties>: not allowed in <testcase>", "attribute reason is not allowed",
                               "only testsuite elements go in testsuites"})
    EXPECT_NE(all.find(expected), std::string::npos) << expected << "\n" << all;
}

}  // namespace
}  // namespace clgrade
