// The margin fix-up of the scene. The bilateral kernels decide "discontinuous" with fast math,
// so a neighbour pair whose |n.n'| is within rounding of 0.9 (or |d - d'| of 0.025) could get
// a different flag on the GPU than in the reference. Rendering cannot avoid such pairs (a
// sphere's rim, the floor near the horizon), so after rendering we move one pixel of every
// ambiguous pair (its depth, or its normal by a small rotation) until the pair's decision is
// clear by a margin, and repeat until no ambiguous pair is left anywhere.
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include "image/generator.h"
#include "image/generator_internal.h"

namespace clgrade::gen {
namespace {

constexpr double kNormalThreshold = 0.9f;  // the float constants the kernels compare with
constexpr double kDepthThreshold = 0.025f;
constexpr int kMaxPasses = 100;

using Vec = std::array<double, 3>;

// Float views of the planes, so a pair is evaluated with the reference's own float arithmetic.
struct Fields {
  int w, h;
  float* nx;
  float* ny;
  float* nz;
  float* d;
  double margin;

  float absDot(int p, int q) const {
    const float s = nx[p] * nx[q] + ny[p] * ny[q] + nz[p] * nz[q];
    return std::fabs(s);
  }
  float absDepth(int p, int q) const { return std::fabs(d[p] - d[q]); }
  bool ambiguous(int p, int q) const { return ambiguousPair(absDot(p, q), absDepth(p, q), margin); }

  // Ambiguous pairs among pixel p's (up to four) neighbours.
  int ambiguousAround(int p) const {
    const int x = p % w, y = p / w;
    int n = 0;
    if (x > 0) n += ambiguous(p, p - 1);
    if (x + 1 < w) n += ambiguous(p, p + 1);
    if (y > 0) n += ambiguous(p, p - w);
    if (y + 1 < h) n += ambiguous(p, p + w);
    return n;
  }
};

// One way to change pixel m: a new depth, or a new unit normal.
struct Move {
  int pixel = -1;
  float depth = 0;
  std::array<float, 3> normal{};
  int newAmbiguous = 1 << 30;  // ambiguous pairs around the pixel after the move
  double size = 1e300;         // how far the pixel moved (depth difference or normal distance)
};

// The unit normal n rotated in the plane of n and the other pixel's normal so that
// |n' . other| = target exactly (up to rounding), on the side n already is.
std::array<float, 3> rotateTo(const Vec& n, const Vec& other, double target) {
  const double s = (n[0] * other[0] + n[1] * other[1] + n[2] * other[2]) < 0.0 ? -1.0 : 1.0;
  const Vec p{s * other[0], s * other[1], s * other[2]};
  const double c = n[0] * p[0] + n[1] * p[1] + n[2] * p[2];
  Vec t{n[0] - c * p[0], n[1] - c * p[1], n[2] - c * p[2]};  // part of n perpendicular to p
  double len = std::sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
  if (len < 1e-12) {
    // n parallel to p: any perpendicular will do; take the axis p points least along.
    int axis = 0;
    for (int a = 1; a < 3; ++a) {
      if (std::fabs(p[a]) < std::fabs(p[axis])) axis = a;
    }
    t = {-p[axis] * p[0], -p[axis] * p[1], -p[axis] * p[2]};
    t[axis] += 1.0;
    len = std::sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
  }
  const double sine = std::sqrt(1.0 - target * target);
  Vec r;
  for (int a = 0; a < 3; ++a) r[a] = target * p[a] + sine * t[a] / len;
  const double rl = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);  // keep it unit length
  return {static_cast<float>(r[0] / rl), static_cast<float>(r[1] / rl), static_cast<float>(r[2] / rl)};
}

// Tries `cand` on the fields, scores it, and keeps it in `best` if it resolves the pair (m, o)
// and disturbs the neighbourhood less than the best so far.
void consider(Fields& f, int m, int o, Move cand, Move* best) {
  const float oldD = f.d[m];
  const float oldN[3] = {f.nx[m], f.ny[m], f.nz[m]};
  f.d[m] = cand.depth;
  f.nx[m] = cand.normal[0];
  f.ny[m] = cand.normal[1];
  f.nz[m] = cand.normal[2];
  if (!f.ambiguous(m, o)) {
    cand.newAmbiguous = f.ambiguousAround(m);
    if (cand.newAmbiguous < best->newAmbiguous || (cand.newAmbiguous == best->newAmbiguous && cand.size < best->size)) {
      *best = cand;
    }
  }
  f.d[m] = oldD;
  f.nx[m] = oldN[0];
  f.ny[m] = oldN[1];
  f.nz[m] = oldN[2];
}

// Clears the ambiguous pair (p, q) by moving one of its pixels. Candidates, for either pixel:
// its depth set so |d - d'| is 3 margins beyond 0.025 on either side, or its normal rotated so
// |n.n'| is 3 margins beyond 0.9 on either side. The one that leaves the fewest ambiguous pairs
// around the moved pixel wins, then the smallest move.
void resolve(Fields& f, int p, int q) {
  Move best;
  const double step = 3.0 * f.margin;
  for (int m : {q, p}) {
    const int o = m == q ? p : q;
    const std::array<float, 3> keepN{f.nx[m], f.ny[m], f.nz[m]};
    const Vec nm{f.nx[m], f.ny[m], f.nz[m]}, no{f.nx[o], f.ny[o], f.nz[o]};
    for (double target : {kDepthThreshold + step, kDepthThreshold - step}) {
      for (double side : {1.0, -1.0}) {
        const double sign = (f.d[m] >= f.d[o] ? 1.0 : -1.0) * side;
        const double nd = f.d[o] + sign * target;
        if (nd < 0.0 || nd > 1.0) continue;
        Move c;
        c.pixel = m;
        c.depth = static_cast<float>(nd);
        c.normal = keepN;
        c.size = std::fabs(nd - f.d[m]);
        consider(f, m, o, c, &best);
      }
    }
    for (double target : {kNormalThreshold - step, kNormalThreshold + step}) {
      Move c;
      c.pixel = m;
      c.depth = f.d[m];
      c.normal = rotateTo(nm, no, target);
      const double dx = c.normal[0] - nm[0], dy = c.normal[1] - nm[1], dz = c.normal[2] - nm[2];
      c.size = std::sqrt(dx * dx + dy * dy + dz * dz);
      consider(f, m, o, c, &best);
    }
  }
  if (best.pixel < 0) {
    throw std::logic_error("makeScene: no move clears the ambiguous pair at pixels " + std::to_string(p) + ", " +
                           std::to_string(q));
  }
  f.d[best.pixel] = best.depth;
  f.nx[best.pixel] = best.normal[0];
  f.ny[best.pixel] = best.normal[1];
  f.nz[best.pixel] = best.normal[2];
}

}  // namespace

bool ambiguousPair(float a, float b, double margin) {
  const double A = a, B = b;
  const bool normalNear = std::fabs(A - kNormalThreshold) <= margin;
  const bool depthNear = std::fabs(B - kDepthThreshold) <= margin;
  const bool normalClearlyTrue = A < kNormalThreshold - margin;
  const bool depthClearlyTrue = B > kDepthThreshold + margin;
  // A near test only matters if the other test does not already decide "discontinuous".
  return (normalNear && !depthClearlyTrue) || (depthNear && !normalClearlyTrue);
}

MarginReport enforceFlagMargin(Image* normals, Image* depth, double margin) {
  MarginReport report;
  Fields f{normals->width,  normals->height, normals->plane(0), normals->plane(1), normals->plane(2),
           depth->plane(0), margin};
  for (int pass = 0; pass < kMaxPasses; ++pass) {
    int moved = 0;
    // Gauss-Seidel order: a pair sees the moves already made in this pass.
    for (int y = 0; y < f.h; ++y) {
      for (int x = 0; x < f.w; ++x) {
        const int p = y * f.w + x;
        if (x + 1 < f.w && f.ambiguous(p, p + 1)) {
          resolve(f, p, p + 1);
          ++moved;
        }
        if (y + 1 < f.h && f.ambiguous(p, p + f.w)) {
          resolve(f, p, p + f.w);
          ++moved;
        }
      }
    }
    if (moved == 0) return report;
    report.passes += 1;
    report.moves += moved;
  }
  throw std::logic_error("makeScene: the margin fix-up did not converge in " + std::to_string(kMaxPasses) + " passes");
}

}  // namespace clgrade::gen
