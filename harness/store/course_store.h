// The store of one clgrade build: the course's inputs (what visible cases and the timings run on)
// and the CPU's results on them, kept on disk so that a grade reads what it would otherwise make
// again (a 4096 x 4096 scene: 0.8 s on 16 cores, 2 s on two; its bilateral result: seconds).
//
// Layout: <root>/<build id>/inputs and <root>/<build id>/results (util/cache_home.h's buildId: another
// build keeps its own). Only the trusted side writes (the keeper, the batch's timer); a runner sees
// `inputs` read-only in its sandbox (those images are public: `clgrade golden --export` writes them)
// and never `results`, the answers. Nothing made from a hidden seed is stored: hidden inputs change
// with every grade's seed.
#pragma once

#include <memory>
#include <string>

#include "store/image_store.h"

namespace clgrade {

struct CourseStore {
  std::shared_ptr<const ImageStore> inputs;   ///< null: no store
  std::shared_ptr<const ImageStore> results;  ///< null: no store (a runner never has one)
  std::string root;                           ///< what openCourseStore was given ("none" when there is no store)
  /// A shared lock on the build's folder while this store (any copy of it) lives: no other clgrade
  /// removes a folder in use.
  std::shared_ptr<const void> inUse;
  explicit operator bool() const { return inputs != nullptr; }
};

/// The default root: <cache home>/clgrade/store (/var/cache/clgrade/store as root).
std::string defaultStoreRoot();

/// The writable store of this build below `root` ("" the default root; "none": no store), made if
/// need be and held in use. The folders of other builds below it (those clgrade made: a build id as
/// name, the marker file) are removed when no clgrade holds them and none has opened them for ten
/// minutes, all but the last opened (an instructor may switch between two installed versions). No
/// store, with the reason in `why`, when the folders cannot be made, when `root` or a folder above it
/// lets another user replace them (writable by others, no sticky bit), or when the store's own
/// folders belong to another user or can be written by others: they would feed the keeper images it
/// has not made.
CourseStore openCourseStore(const std::string& root, std::string* why);

/// A runner's view of `inputsFolder` ("" none): read-only, no results.
CourseStore readOnlyInputs(const std::string& inputsFolder);

}  // namespace clgrade
