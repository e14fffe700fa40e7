#include "protocol/tape.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "util/trace.h"

namespace clgrade {
namespace {

constexpr char kMagic[] = "clgrade-tape/1\n";
constexpr size_t kMaxOp = 256;
/// One payload at most: the largest buffer a case reads back (guards included) is far below this.
constexpr uint64_t kMaxPayload = uint64_t(2) << 30;
const std::string kEnd = "end";

}  // namespace

std::shared_ptr<Tape> Tape::recorder(const std::string& path, std::string* err) {
  std::shared_ptr<Tape> t(new Tape());
  t->file_ = std::fopen(path.c_str(), "wbe");
  if (!t->file_) {
    *err = "cannot write the record " + path + ": " + std::strerror(errno);
    return nullptr;
  }
  // Large writes, no flush per entry: a record that did not reach its end mark is never graded.
  std::setvbuf(t->file_, nullptr, _IOFBF, size_t(1) << 20);
  std::fwrite(kMagic, 1, sizeof kMagic - 1, t->file_);
  return t;
}

std::shared_ptr<Tape> Tape::player(const std::string& path, std::string* err, std::function<bool()> writing) {
  int fd = -1;
  struct stat st;
  for (;;) {
    // Non-blocking: a FIFO left in the record's place must not hold the keeper; only a regular file is read.
    fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0 || !writing || !writing()) break;
    usleep(5000);  // the runner has not made its record yet
  }
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    if (fd >= 0) ::close(fd);
    *err = "the runner left no record";
    return nullptr;
  }
  std::shared_ptr<Tape> t(new Tape());
  t->replaying_ = true;
  t->writing_ = std::move(writing);
  t->file_ = fdopen(fd, "rb");
  char magic[sizeof kMagic - 1];
  if (!t->file_ || !t->readExactly(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof magic) != 0) {
    *err = "the runner's record is not a clgrade record";
    return nullptr;
  }
  return t;
}

bool Tape::readExactly(void* into, size_t n) {
  char* at = static_cast<char*>(into);
  size_t got = 0;
  std::optional<trace::Span> waiting;  // the replay ahead of its runner, on a timeline (CLGRADE_TRACE)
  for (;;) {
    const bool more = followed();  // asked before reading: what was written before it ended is read
    got += std::fread(at + got, 1, n - got, file_);
    if (got == n) return true;
    if (std::ferror(file_) || !more) return false;
    std::clearerr(file_);
    if (!waiting) waiting.emplace("waiting for the runner", "replay");
    usleep(2000);
  }
}

Tape::~Tape() {
  if (file_) std::fclose(file_);
}

void Tape::put(Kind kind, const std::string& op, const std::string& payload) {
  if (!file_ || replaying_) return;
  const uint8_t k = static_cast<uint8_t>(kind);
  const std::string head = tape::u64(op.size()) + op + tape::u64(payload.size());
  std::fwrite(&k, 1, 1, file_);
  std::fwrite(head.data(), 1, head.size(), file_);
  std::fwrite(payload.data(), 1, payload.size(), file_);
  ++steps_;
  if (kind == Kind::DeviceError) {
    size_t at = 0;
    errorCodes_.push_back(static_cast<int>(static_cast<int64_t>(tape::readU64(payload, &at))));
  }
}

void Tape::close() {
  put(Kind::Result, kEnd, "");
  if (file_) std::fclose(file_);
  file_ = nullptr;
}

void Tape::mismatch(const std::string& what) {
  if (broken_.empty()) broken_ = "step " + std::to_string(steps_ + 1) + ": " + what;
  throw TapeMismatch("the runner's record does not fit the grading (" + broken_ + ")");
}

bool Tape::readEntry(Entry* e, std::string* why) {
  uint8_t kind = 0;
  char head[8];
  auto readU64 = [&](uint64_t* v) {
    if (!readExactly(head, 8)) return false;
    size_t at = 0;
    *v = tape::readU64(std::string(head, 8), &at);
    return true;
  };
  uint64_t opSize = 0, payloadSize = 0;
  if (!readExactly(&kind, 1) || kind > 1 || !readU64(&opSize) || opSize > kMaxOp) {
    *why = "the record ends or is damaged";
    return false;
  }
  e->kind = static_cast<Kind>(kind);
  e->op.resize(opSize);
  if (!readExactly(e->op.data(), opSize) || !readU64(&payloadSize) || payloadSize > kMaxPayload) {
    *why = "the record ends or is damaged";
    return false;
  }
  e->payload.resize(payloadSize);
  if (payloadSize && !readExactly(e->payload.data(), payloadSize)) {
    *why = "the record ends in the middle of an entry";
    return false;
  }
  return true;
}

Tape::Entry Tape::take(const std::string& op) {
  if (!broken_.empty()) throw TapeMismatch("the runner's record does not fit the grading (" + broken_ + ")");
  Entry e;
  std::string why;
  if (!file_ || !readEntry(&e, &why)) mismatch("expected " + op + ", but " + why);
  if (e.op != op) mismatch("expected " + op + ", found " + (e.op.size() < 64 ? e.op : e.op.substr(0, 64)));
  ++steps_;
  return e;
}

bool Tape::finished() {
  if (!broken_.empty() || !file_) return false;
  Entry e;
  std::string why;
  if (!readEntry(&e, &why) || e.op != kEnd) {
    broken_ = "step " + std::to_string(steps_ + 1) + ": the record goes on (or ends) where the grading ended";
    return false;
  }
  char extra;
  if (readExactly(&extra, 1)) {  // a runner still writing is waited for: what it adds is read too
    broken_ = "bytes after the record's end";
    return false;
  }
  return true;
}

namespace tape {

std::string u64(uint64_t v) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; ++i) s[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
  return s;
}

std::string f64(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  return u64(bits);
}

uint64_t readU64(const std::string& bytes, size_t* at) {
  if (*at + 8 > bytes.size()) throw TapeMismatch("the runner's record holds a short value");
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(bytes[*at + i]);
  *at += 8;
  return v;
}

double readF64(const std::string& bytes, size_t* at) {
  const uint64_t bits = readU64(bytes, at);
  double v;
  std::memcpy(&v, &bits, 8);
  return v;
}

std::string str(const std::string& s) { return u64(s.size()) + s; }

std::string readStr(const std::string& bytes, size_t* at) {
  const uint64_t n = readU64(bytes, at);
  if (n > bytes.size() - *at) throw TapeMismatch("the runner's record holds a short string");
  std::string s = bytes.substr(*at, n);
  *at += n;
  return s;
}

}  // namespace tape
}  // namespace clgrade
