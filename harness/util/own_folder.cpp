#include "util/own_folder.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace clgrade {

std::string ownFolder(const std::string& path, mode_t mode, bool setMode) {
  if (mkdir(path.c_str(), mode) == 0)
    setMode = true;
  else if (errno != EEXIST)
    return "cannot make " + path + ": " + std::strerror(errno);
  struct stat st;
  if (lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return path + " is not a folder";
  if (st.st_uid != geteuid()) return path + " belongs to another user";
  if (setMode && (st.st_mode & 07777) != mode) {
    if (chmod(path.c_str(), mode) != 0) return "cannot set the permissions of " + path;
    st.st_mode = (st.st_mode & ~07777) | mode;
  }
  if (st.st_mode & (S_IWGRP | S_IWOTH)) return path + " can be written by other users";
  return "";
}

}  // namespace clgrade
