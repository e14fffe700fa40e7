#include "util/cache_home.h"

#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "util/sha256.h"

namespace clgrade {

std::string cacheHome() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  return geteuid() == 0 ? std::string("/var/cache")
         : xdg && *xdg  ? std::string(xdg)
                        : std::string(home && *home ? home : "/tmp") + "/.cache";
}

namespace {

/// The NT_GNU_BUILD_ID note of the main program's PT_NOTE segments, hex ("" when it has none).
int findBuildId(struct dl_phdr_info* info, size_t, void* data) {
  auto* out = static_cast<std::string*>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const char* at = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
    const char* end = at + ph.p_memsz;
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, at, sizeof note);
      const char* name = at + sizeof note;
      const char* desc = name + ((note.n_namesz + 3) & ~3u);
      const char* next = desc + ((note.n_descsz + 3) & ~3u);
      if (next > end) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        static const char digits[] = "0123456789abcdef";
        for (unsigned j = 0; j < note.n_descsz; ++j) {
          const auto byte = static_cast<unsigned char>(desc[j]);
          *out += digits[byte >> 4];
          *out += digits[byte & 15];
        }
        return 1;
      }
      at = next;
    }
  }
  return 1;  // the first object is the main program: the others are libraries
}

}  // namespace

std::string buildId() {
  static const std::string id = [] {
    std::string hex;
    dl_iterate_phdr(findBuildId, &hex);
    if (hex.empty()) hex = sha256File("/proc/self/exe").substr(0, 40);
    return hex;
  }();
  return id;
}

}  // namespace clgrade
