// The rendered scene of task 3: a pinhole camera casts one ray per pixel into a room (floor,
// back wall) with axis-aligned boxes and spheres. Per pixel we keep the unit normal, the hit
// distance (normalised to [0, 1] as depth) and a diffusely shaded, textured colour with
// render-like noise. All in double from +, -, *, / and sqrt, rounded to float at the end.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "image/generator.h"
#include "image/generator_internal.h"

namespace clgrade {
namespace {

using Vec = std::array<double, 3>;
using gen::Rng;

Vec add(const Vec& a, const Vec& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
Vec sub(const Vec& a, const Vec& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec scale(const Vec& a, double s) { return {a[0] * s, a[1] * s, a[2] * s}; }
double dot(const Vec& a, const Vec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec normalise(const Vec& a) { return scale(a, 1.0 / std::sqrt(dot(a, a))); }

struct Box {
  Vec lo, hi;
  Vec albedo;
};
struct Sphere {
  Vec centre;
  double radius;
  Vec albedo, band;  // two tones in latitude bands
};

enum class Surface { kFloor, kWall, kBox, kSphere };

struct Hit {
  double t = 1e300;
  Vec normal{0, 0, 0};
  Surface surface = Surface::kWall;
  int index = -1;  // which box or sphere
};

// The room: floor y = 0, back wall z = kWallZ, camera at kEye looking slightly down.
constexpr double kWallZ = 14.0;
const Vec kEye{0.0, 1.5, 0.0};

struct World {
  std::vector<Box> boxes;
  std::vector<Sphere> spheres;
  Vec light;  // unit direction towards the (distant) light
  uint64_t textureSeed, noiseSeed;
};

World makeWorld(uint64_t seed) {
  Rng rng(gen::mix64(seed ^ 0x7363656e65ull));  // "scene"
  World w;
  // Positions are fixed in layout (so every seed has near, middle and far objects and a few
  // overlaps) and jittered by the seed.
  auto j = [&rng](double s) { return rng.range(-s, s); };
  auto colour = [&rng]() { return Vec{rng.range(0.25, 0.9), rng.range(0.25, 0.9), rng.range(0.25, 0.9)}; };
  const std::array<std::array<double, 5>, 5> boxes{{
      // x0, x1, height, z0, z1
      {{-3.3, -1.7, 1.3, 4.6, 6.0}},
      {{0.9, 2.5, 2.3, 8.2, 9.7}},
      {{-0.7, 0.5, 0.55, 3.2, 4.0}},
      {{2.6, 4.4, 0.9, 11.0, 12.5}},
      {{-5.6, -4.6, 3.2, 9.6, 10.6}},  // a pillar at the far left
  }};
  for (const auto& b : boxes) {
    const double dx = j(0.2), dz = j(0.3);
    w.boxes.push_back({{b[0] + dx, 0.0, b[3] + dz}, {b[1] + dx, b[2] + j(0.15), b[4] + dz}, colour()});
  }
  // Spheres: on the floor, on top of the tall box, and floating in front of the wall.
  const Box& tall = w.boxes[1];
  // x, height of the lowest point, z, radius
  const std::array<std::array<double, 4>, 5> spheres{{
      {{-0.3 + j(0.2), 0.0, 6.8 + j(0.3), 0.9}},
      {{2.9 + j(0.2), 0.0, 5.3 + j(0.2), 0.55}},
      {{0.5 * (tall.lo[0] + tall.hi[0]), tall.hi[1], 0.5 * (tall.lo[2] + tall.hi[2]), 0.5}},
      {{-2.6 + j(0.3), 0.4, 11.2 + j(0.3), 0.75}},
      {{1.3 + j(0.2), 1.1, 4.6 + j(0.2), 0.3}},
  }};
  for (const auto& s : spheres) {
    const double r = s[3] * (1.0 + j(0.1));
    w.spheres.push_back({{s[0], s[1] + r, s[2]}, r, colour(), colour()});
  }
  w.light = normalise({-0.45 + j(0.1), 0.8, -0.4 + j(0.1)});
  w.textureSeed = rng.next();
  w.noiseSeed = rng.next();
  return w;
}

// Slab test: the ray enters the box where it has crossed all three pairs of planes. The entry
// face's axis gives the normal, pointing back against the ray.
bool hitBox(const Box& b, const Vec& o, const Vec& d, double* t, Vec* n) {
  double tNear = -1e300, tFar = 1e300;
  int axis = -1;
  for (int a = 0; a < 3; ++a) {
    if (d[a] == 0.0) {
      if (o[a] < b.lo[a] || o[a] > b.hi[a]) return false;
      continue;
    }
    double t0 = (b.lo[a] - o[a]) / d[a], t1 = (b.hi[a] - o[a]) / d[a];
    if (t0 > t1) std::swap(t0, t1);
    if (t0 > tNear) {
      tNear = t0;
      axis = a;
    }
    tFar = std::min(tFar, t1);
  }
  if (axis < 0 || tNear > tFar || tNear <= 1e-9) return false;
  *t = tNear;
  *n = {0, 0, 0};
  (*n)[axis] = d[axis] > 0 ? -1.0 : 1.0;
  return true;
}

// |o + t d - c|^2 = r^2 with |d| = 1: t = -b - sqrt(b^2 - c), the nearer root.
bool hitSphere(const Sphere& s, const Vec& o, const Vec& d, double* t) {
  const Vec oc = sub(o, s.centre);
  const double b = dot(oc, d);
  const double c = dot(oc, oc) - s.radius * s.radius;
  const double disc = b * b - c;
  if (disc <= 0.0) return false;
  const double root = -b - std::sqrt(disc);
  if (root <= 1e-9) return false;
  *t = root;
  return true;
}

// The nearest of everything along the ray. Floor and wall close the room, so every camera
// ray hits something (the camera looks forward: d.z > 0).
Hit trace(const World& w, const Vec& o, const Vec& d) {
  Hit h;
  if (d[2] > 0.0) h = {(kWallZ - o[2]) / d[2], {0.0, 0.0, -1.0}, Surface::kWall, -1};
  if (d[1] < 0.0) {
    const double t = -o[1] / d[1];
    if (t < h.t) h = {t, {0.0, 1.0, 0.0}, Surface::kFloor, -1};
  }
  for (size_t i = 0; i < w.boxes.size(); ++i) {
    double t;
    Vec n;
    if (hitBox(w.boxes[i], o, d, &t, &n) && t < h.t) h = {t, n, Surface::kBox, static_cast<int>(i)};
  }
  for (size_t i = 0; i < w.spheres.size(); ++i) {
    double t;
    if (hitSphere(w.spheres[i], o, d, &t) && t < h.t) {
      const Vec p = add(o, scale(d, t));
      h = {t, normalise(sub(p, w.spheres[i].centre)), Surface::kSphere, static_cast<int>(i)};
    }
  }
  return h;
}

// True if a box or sphere lies between p and the light (floor and wall cannot: the light is
// above the floor and on the camera's side of the wall).
bool inShadow(const World& w, const Vec& p) {
  double t;
  Vec n;
  for (const Box& b : w.boxes) {
    if (hitBox(b, p, w.light, &t, &n)) return true;
  }
  for (const Sphere& s : w.spheres) {
    if (hitSphere(s, p, w.light, &t)) return true;
  }
  return false;
}

// Surface colour before lighting: checker tiles with grain on the floor, bricks on the wall,
// lightly mottled boxes, banded spheres.
Vec albedo(const World& w, const Hit& h, const Vec& p) {
  const uint64_t ts = w.textureSeed;
  switch (h.surface) {
    case Surface::kFloor: {
      const bool dark = ((gen::floorInt(p[0] / 0.8) + gen::floorInt(p[2] / 0.8)) & 1) != 0;
      const double grain = 0.85 + 0.3 * gen::valueNoise(ts, p[0] * 12.0, p[2] * 1.5);
      const Vec base = dark ? Vec{0.45, 0.3, 0.2} : Vec{0.8, 0.65, 0.45};
      return scale(base, grain);
    }
    case Surface::kWall: {
      const int64_t row = gen::floorInt(p[1] / 0.25);
      const double bx = p[0] / 0.5 + ((row & 1) ? 0.5 : 0.0);
      const int64_t brick = gen::floorInt(bx);
      if (gen::fract(p[1] / 0.25) < 0.08 || gen::fract(bx) < 0.04) return {0.75, 0.75, 0.72};  // mortar
      const double v = gen::unit(gen::hash(ts, brick, row));
      return {0.55 + 0.2 * v, 0.25 + 0.1 * v, 0.2 + 0.05 * v};
    }
    case Surface::kBox: {
      const Vec& a = w.boxes[h.index].albedo;
      // Mottling from the two coordinates that vary across the face.
      const int axis = h.normal[0] != 0.0 ? 0 : (h.normal[1] != 0.0 ? 1 : 2);
      const double s = p[(axis + 1) % 3] * 6.0, t = p[(axis + 2) % 3] * 6.0;
      return scale(a, 0.85 + 0.2 * gen::valueNoise(ts + 1, s, t));
    }
    case Surface::kSphere: {
      const Sphere& s = w.spheres[h.index];
      const bool band = (gen::floorInt((h.normal[1] + 1.0) * 4.0) & 1) != 0;
      return band ? s.band : s.albedo;
    }
  }
  return {0.5, 0.5, 0.5};
}

}  // namespace

Scene makeScene(int width, int height, uint64_t seed) { return makeScene(width, height, seed, nullptr); }

Scene makeScene(int width, int height, uint64_t seed, MarginReport* report) {
  Scene scene{Image(width, height, 3), Image(width, height, 3), Image(width, height, 1)};
  if (width < 1 || height < 1) return scene;
  const World w = makeWorld(seed);

  // Camera basis: forward tilted down a little, right = +x, up = forward x right.
  const Vec forward = normalise({0.0, -0.12, 1.0});
  const Vec right{1.0, 0.0, 0.0};
  const Vec up{0.0, forward[2], -forward[1]};
  const double tanHalf = 0.45;  // vertical half field of view of about 24 degrees
  const double aspect = static_cast<double>(width) / height;

  std::vector<double> dist(static_cast<size_t>(width) * height);
  gen::parallelRows(height, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      for (int x = 0; x < width; ++x) {
        const double sx = ((x + 0.5) * 2.0 / width - 1.0) * tanHalf * aspect;
        const double sy = (1.0 - (y + 0.5) * 2.0 / height) * tanHalf;
        const Vec d = normalise(add(forward, add(scale(right, sx), scale(up, sy))));
        const Hit h = trace(w, kEye, d);
        const Vec p = add(kEye, scale(d, h.t));

        // Diffuse (Lambert) shading with a hard shadow, plus a sky-like ambient term.
        const double lambert = std::max(0.0, dot(h.normal, w.light));
        const bool lit = lambert > 0.0 && !inShadow(w, add(p, scale(h.normal, 1e-6)));
        const double ambient = 0.12 + 0.08 * (0.5 + 0.5 * h.normal[1]);
        const Vec shaded = scale(albedo(w, h, p), ambient + (lit ? 0.85 * lambert : 0.0));

        // Render-like noise: a per-pixel brightness error (as from few light samples), a little
        // colour noise, and a rare firefly.
        const double lum = 0.2 * gen::gaussianish(w.noiseSeed, x, y, 3);
        const bool firefly = gen::hash(w.noiseSeed, x, y, 4) % 3000 == 0;
        for (int c = 0; c < 3; ++c) {
          double v = shaded[c] * (1.0 + lum) + 0.025 * gen::gaussianish(w.noiseSeed, x, y, c);
          if (firefly) v += 0.6;
          scene.colour.at(c, x, y) = static_cast<float>(gen::clamp01(v));
          scene.normals.at(c, x, y) = static_cast<float>(h.normal[c]);
        }
        dist[static_cast<size_t>(y) * width + x] = h.t;
      }
    }
  });
  const double farthest = dist.empty() ? 0.0 : *std::max_element(dist.begin(), dist.end());
  // Depth: linear distance over a little more than the farthest hit, so it stays inside [0, 1]
  // with room for the margin fix-up to push a depth further.
  const double norm = 1.0 / (farthest * 1.05);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      scene.depth.at(0, x, y) = static_cast<float>(dist[static_cast<size_t>(y) * width + x] * norm);
    }
  }

  const MarginReport fix = gen::enforceFlagMargin(&scene.normals, &scene.depth, kSceneFlagMargin);
  if (report) *report = fix;
  return scene;
}

}  // namespace clgrade
