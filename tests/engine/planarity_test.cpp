// Tests for engine/planarity: known planar / non-planar graphs, random triangulations, certified random graphs
// (planar answers checked by Euler's formula on the traced faces, non-planar answers by shrinking to an edge-minimal
// non-planar subgraph and checking it is a subdivision of K5 or K3,3) and the four Small World maps.
#include "engine/planarity.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <iostream>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace swref::engine {
namespace {

using Edges = std::vector<std::pair<int, int>>;

// Generated once by a python script from /work/shared/maps/smallworld-{2p,3p,4p,5p}.json ("adjacency" verbatim,
// border = ids of regions with "border": true).
// smallworld-2p.json: 23 regions, 51 adjacencies, 15 border regions.
constexpr int kRegions2P = 23;
constexpr std::pair<int, int> kAdjacency2P[] = {
    {0, 1}, {0, 5}, {1, 2}, {1, 5}, {1, 6}, {2, 3}, {2, 6}, {2, 7}, {2, 8}, {3, 4}, {3, 8}, {3, 9}, {4, 9}, {4, 10},
    {5, 6}, {5, 11}, {6, 7}, {6, 11}, {6, 12}, {7, 8}, {7, 12}, {7, 13}, {8, 9}, {8, 13}, {8, 14}, {9, 10}, {9, 14},
    {10, 14}, {10, 15}, {11, 12}, {11, 16}, {11, 17}, {12, 13}, {12, 17}, {12, 18}, {13, 14}, {13, 18}, {13, 19},
    {13, 20}, {14, 15}, {14, 20}, {14, 21}, {15, 21}, {15, 22}, {16, 17}, {17, 18}, {18, 19}, {19, 20}, {20, 21},
    {20, 22}, {21, 22}
};
constexpr int kBorder2P[] = {
    0, 1, 2, 3, 4, 5, 10, 11, 15, 16, 17, 18, 19, 20, 22
};
// smallworld-3p.json: 30 regions, 71 adjacencies, 16 border regions.
constexpr int kRegions3P = 30;
constexpr std::pair<int, int> kAdjacency3P[] = {
    {0, 1}, {0, 7}, {0, 12}, {1, 2}, {1, 7}, {1, 8}, {2, 3}, {2, 8}, {2, 9}, {3, 4}, {3, 9}, {3, 10}, {4, 5}, {4,
    10}, {4, 11}, {5, 6}, {5, 11}, {6, 11}, {6, 16}, {6, 17}, {7, 8}, {7, 12}, {8, 9}, {8, 12}, {8, 13}, {9, 10},
    {9, 13}, {9, 14}, {10, 11}, {10, 14}, {10, 15}, {11, 15}, {11, 16}, {12, 13}, {12, 18}, {13, 14}, {13, 18}, {13,
    19}, {14, 15}, {14, 19}, {14, 20}, {14, 21}, {15, 16}, {15, 21}, {15, 22}, {16, 17}, {16, 22}, {16, 23}, {17,
    23}, {17, 24}, {18, 19}, {18, 25}, {18, 26}, {19, 20}, {19, 26}, {19, 27}, {20, 21}, {20, 27}, {20, 28}, {21,
    22}, {21, 28}, {21, 29}, {22, 23}, {22, 29}, {23, 24}, {23, 29}, {24, 29}, {25, 26}, {26, 27}, {27, 28}, {28,
    29}
};
constexpr int kBorder3P[] = {
    0, 1, 2, 3, 4, 5, 6, 12, 17, 18, 24, 25, 26, 27, 28, 29
};
// smallworld-4p.json: 39 regions, 95 adjacencies, 18 border regions.
constexpr int kRegions4P = 39;
constexpr std::pair<int, int> kAdjacency4P[] = {
    {0, 1}, {0, 2}, {0, 3}, {0, 6}, {0, 7}, {0, 13}, {0, 19}, {1, 6}, {2, 3}, {2, 4}, {2, 7}, {2, 8}, {3, 4}, {4,
    5}, {4, 8}, {4, 9}, {5, 9}, {5, 10}, {6, 7}, {6, 13}, {7, 8}, {7, 13}, {7, 14}, {8, 9}, {8, 14}, {8, 15}, {8,
    16}, {9, 10}, {9, 11}, {9, 16}, {10, 11}, {10, 12}, {11, 12}, {11, 16}, {11, 17}, {12, 17}, {12, 18}, {13, 14},
    {13, 19}, {13, 20}, {14, 15}, {14, 20}, {14, 21}, {15, 16}, {15, 21}, {16, 17}, {16, 21}, {16, 24}, {16, 25},
    {17, 18}, {17, 25}, {17, 26}, {18, 26}, {18, 27}, {19, 20}, {19, 22}, {20, 21}, {20, 22}, {20, 23}, {21, 23},
    {21, 24}, {22, 23}, {22, 28}, {23, 24}, {23, 28}, {23, 29}, {23, 30}, {24, 25}, {24, 30}, {25, 26}, {25, 30},
    {25, 31}, {25, 32}, {25, 33}, {26, 27}, {26, 33}, {26, 34}, {27, 34}, {28, 29}, {29, 30}, {29, 35}, {30, 31},
    {30, 35}, {30, 36}, {31, 32}, {31, 36}, {32, 33}, {32, 36}, {32, 37}, {33, 34}, {33, 37}, {34, 37}, {34, 38},
    {35, 36}, {37, 38}
};
constexpr int kBorder4P[] = {
    0, 3, 4, 5, 10, 12, 18, 19, 22, 27, 28, 29, 32, 34, 35, 36, 37, 38
};
// smallworld-5p.json: 48 regions, 119 adjacencies, 21 border regions.
constexpr int kRegions5P = 48;
constexpr std::pair<int, int> kAdjacency5P[] = {
    {0, 1}, {0, 6}, {0, 11}, {0, 16}, {0, 17}, {0, 25}, {0, 30}, {0, 31}, {1, 2}, {1, 6}, {2, 3}, {2, 6}, {2, 7},
    {3, 4}, {3, 7}, {3, 8}, {4, 5}, {4, 8}, {4, 9}, {5, 9}, {5, 10}, {6, 7}, {6, 11}, {7, 8}, {7, 11}, {7, 12}, {8,
    9}, {8, 12}, {8, 13}, {9, 10}, {9, 13}, {9, 14}, {10, 14}, {10, 15}, {11, 12}, {11, 17}, {11, 18}, {12, 13},
    {12, 18}, {12, 19}, {12, 20}, {13, 14}, {13, 20}, {13, 21}, {14, 15}, {14, 21}, {14, 22}, {15, 22}, {16, 17},
    {17, 18}, {17, 25}, {18, 19}, {18, 25}, {18, 26}, {19, 20}, {19, 26}, {20, 21}, {20, 23}, {20, 26}, {20, 27},
    {20, 32}, {20, 33}, {20, 39}, {21, 22}, {21, 23}, {22, 23}, {22, 24}, {23, 24}, {23, 27}, {23, 28}, {24, 28},
    {24, 29}, {25, 26}, {25, 31}, {25, 32}, {26, 32}, {27, 28}, {27, 33}, {27, 34}, {28, 29}, {28, 34}, {28, 35},
    {29, 35}, {30, 31}, {30, 36}, {31, 32}, {31, 36}, {31, 37}, {32, 37}, {32, 38}, {32, 39}, {33, 34}, {33, 39},
    {33, 40}, {33, 41}, {34, 35}, {34, 41}, {34, 42}, {35, 42}, {35, 43}, {36, 37}, {36, 44}, {37, 38}, {37, 44},
    {37, 45}, {38, 39}, {38, 45}, {38, 46}, {39, 40}, {39, 46}, {39, 47}, {40, 41}, {40, 47}, {41, 42}, {41, 47},
    {42, 43}, {44, 45}, {45, 46}, {46, 47}
};
constexpr int kBorder5P[] = {
    0, 1, 2, 3, 4, 5, 10, 15, 22, 24, 29, 30, 35, 36, 41, 42, 43, 44, 45, 46, 47
};

// ---------------------------------------------------------------------------------------------------------------
// Helpers.

std::vector<std::vector<int>> Neighbours(int n, const Edges& edges) {
  std::vector<std::vector<int>> adj(n);
  for (const auto& [u, v] : edges) {
    adj[u].push_back(v);
    adj[v].push_back(u);
  }
  return adj;
}

int ComponentCount(int n, const Edges& edges) {
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  const auto find = [&parent](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  int count = n;
  for (const auto& [u, v] : edges) {
    if (find(u) != find(v)) {
      parent[find(u)] = find(v);
      --count;
    }
  }
  return count;
}

// The rotation lists exactly each vertex's neighbours, and its faces satisfy V - E + F = 2C (convention of
// planarity.h: each component its own sphere, an isolated vertex one face).
testing::AssertionResult IsPlanarEmbedding(int n, const Edges& edges, const std::vector<std::vector<int>>& rotation) {
  if (static_cast<int>(rotation.size()) != n) return testing::AssertionFailure() << "rotation has wrong size";
  std::vector<std::vector<int>> adj = Neighbours(n, edges);
  for (int v = 0; v < n; ++v) {
    std::vector<int> listed = rotation[v];
    std::sort(listed.begin(), listed.end());
    std::sort(adj[v].begin(), adj[v].end());
    if (listed != adj[v]) return testing::AssertionFailure() << "rotation of " << v << " is not its neighbours";
  }
  const std::vector<std::vector<int>> faces = FacesOfRotation(rotation);
  std::size_t dart_count = 0;
  for (const auto& face : faces) dart_count += face.size() == 1 && rotation[face[0]].empty() ? 0 : face.size();
  if (dart_count != 2 * edges.size()) return testing::AssertionFailure() << "faces do not cover every dart once";
  const int euler = n - static_cast<int>(edges.size()) + static_cast<int>(faces.size());
  const int components = ComponentCount(n, edges);
  if (euler != 2 * components) {
    return testing::AssertionFailure() << "V - E + F = " << euler << " but 2C = " << 2 * components;
  }
  return testing::AssertionSuccess();
}

// Runs TestPlanarity; a planar answer must come with a genuine planar embedding.
bool CheckedPlanar(int n, const Edges& edges) {
  const PlanarityResult result = TestPlanarity(n, edges);
  EXPECT_TRUE(result.error.empty()) << result.error;
  if (result.planar) {
    EXPECT_TRUE(IsPlanarEmbedding(n, edges, result.rotation));
  } else {
    EXPECT_TRUE(result.rotation.empty());
  }
  return result.planar;
}

// True iff the graph, ignoring isolated vertices, is a subdivision of K5 or K3,3.
bool IsKuratowskiSubdivision(int n, const Edges& edges) {
  std::vector<std::set<int>> adj(n);
  for (const auto& [u, v] : edges) {
    adj[u].insert(v);
    adj[v].insert(u);
  }
  for (int v = 0; v < n; ++v) {  // smooth degree-2 vertices
    if (adj[v].size() != 2) continue;
    const int a = *adj[v].begin();
    const int b = *adj[v].rbegin();
    if (adj[a].count(b)) return false;
    adj[a].erase(v), adj[b].erase(v), adj[v].clear();
    adj[a].insert(b), adj[b].insert(a);
    v = -1;  // rescan from the start
  }
  std::vector<int> branch;
  for (int v = 0; v < n; ++v) {
    if (adj[v].size() == 1 || adj[v].size() == 2) return false;
    if (!adj[v].empty()) branch.push_back(v);
  }
  const auto all_degree = [&](std::size_t d) {
    return std::all_of(branch.begin(), branch.end(), [&](int v) { return adj[v].size() == d; });
  };
  if (branch.size() == 5) return all_degree(4);
  if (branch.size() != 6 || !all_degree(3)) return false;
  std::map<int, int> side{{branch[0], 0}};  // 3-regular bipartite on 6 vertices is K3,3
  for (int round = 0; round < 6; ++round) {
    for (int v : branch) {
      if (!side.count(v)) continue;
      for (int w : adj[v]) {
        if (side.count(w) && side[w] == side[v]) return false;
        side[w] = 1 - side[v];
      }
    }
  }
  return side.size() == 6;
}

// Drops edges while the graph stays non-planar; every answer along the way is checked.
Edges MinimalNonPlanarSubgraph(int n, Edges edges) {
  for (std::size_t i = 0; i < edges.size();) {
    Edges trial = edges;
    trial.erase(trial.begin() + static_cast<std::ptrdiff_t>(i));
    if (CheckedPlanar(n, trial)) {
      ++i;
    } else {
      edges = std::move(trial);
    }
  }
  return edges;
}

Edges Complete(int n) {
  Edges edges;
  for (int u = 0; u < n; ++u) {
    for (int v = u + 1; v < n; ++v) edges.push_back({u, v});
  }
  return edges;
}

Edges CompleteBipartite(int a, int b) {
  Edges edges;
  for (int u = 0; u < a; ++u) {
    for (int v = 0; v < b; ++v) edges.push_back({u, a + v});
  }
  return edges;
}

Edges Petersen() {
  Edges edges;
  for (int i = 0; i < 5; ++i) {
    edges.push_back({i, (i + 1) % 5});            // outer cycle
    edges.push_back({i, 5 + i});                  // spokes
    edges.push_back({5 + i, 5 + (i + 2) % 5});    // inner pentagram
  }
  return edges;
}

Edges Grid(int rows, int cols) {
  Edges edges;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      if (c + 1 < cols) edges.push_back({r * cols + c, r * cols + c + 1});
      if (r + 1 < rows) edges.push_back({r * cols + c, (r + 1) * cols + c});
    }
  }
  return edges;
}

Edges Wheel(int rim) {  // hub = rim
  Edges edges;
  for (int i = 0; i < rim; ++i) {
    edges.push_back({i, (i + 1) % rim});
    edges.push_back({i, rim});
  }
  return edges;
}

// Replaces each edge of `edges` by a path of length 2 through a new vertex numbered from `n` on.
Edges Subdivide(int n, const Edges& edges) {
  Edges result;
  for (const auto& [u, v] : edges) {
    result.push_back({u, n});
    result.push_back({n++, v});
  }
  return result;
}

Edges Shifted(const Edges& edges, int offset) {
  Edges result;
  for (const auto& [u, v] : edges) result.push_back({u + offset, v + offset});
  return result;
}

Edges Concat(Edges a, const Edges& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// A random maximal planar graph (E = 3V - 6): insert vertices into random faces of a triangle, then flip random
// edges. Faces are kept counter-clockwise; a flip replaces u-v in faces (u,v,a), (v,u,b) by a-b.
Edges RandomTriangulation(int n, std::mt19937& rng) {
  std::vector<std::array<int, 3>> faces{{0, 1, 2}, {0, 2, 1}};
  for (int v = 3; v < n; ++v) {
    const std::size_t f = std::uniform_int_distribution<std::size_t>(0, faces.size() - 1)(rng);
    const auto [a, b, c] = faces[f];
    faces[f] = {a, b, v};
    faces.push_back({b, c, v});
    faces.push_back({c, a, v});
  }
  std::map<std::pair<int, int>, int> dart_face;
  std::set<std::pair<int, int>> edge_set;
  const auto add_face = [&](int f) {
    for (int k = 0; k < 3; ++k) {
      const int u = faces[f][k];
      const int v = faces[f][(k + 1) % 3];
      dart_face[{u, v}] = f;
      edge_set.insert({std::min(u, v), std::max(u, v)});
    }
  };
  for (int f = 0; f < static_cast<int>(faces.size()); ++f) add_face(f);
  for (int flip = 0; flip < 2 * n; ++flip) {
    const auto it = std::next(edge_set.begin(), std::uniform_int_distribution<int>(0, edge_set.size() - 1)(rng));
    const auto [u, v] = *it;
    const int f1 = dart_face[{u, v}];
    const int f2 = dart_face[{v, u}];
    const int a = faces[f1][0] + faces[f1][1] + faces[f1][2] - u - v;
    const int b = faces[f2][0] + faces[f2][1] + faces[f2][2] - u - v;
    if (edge_set.count({std::min(a, b), std::max(a, b)})) continue;
    edge_set.erase(it);
    for (int f : {f1, f2}) {
      for (int k = 0; k < 3; ++k) dart_face.erase({faces[f][k], faces[f][(k + 1) % 3]});
    }
    faces[f1] = {a, u, b};
    faces[f2] = {b, v, a};
    add_face(f1);
    add_face(f2);
  }
  Edges edges(edge_set.begin(), edge_set.end());
  std::shuffle(edges.begin(), edges.end(), rng);
  return edges;
}

// A non-edge of the graph, chosen at random.
std::pair<int, int> RandomNonEdge(int n, const Edges& edges, std::mt19937& rng) {
  std::set<std::pair<int, int>> edge_set;
  for (const auto& [u, v] : edges) edge_set.insert({std::min(u, v), std::max(u, v)});
  std::uniform_int_distribution<int> pick(0, n - 1);
  while (true) {
    const int u = pick(rng);
    const int v = pick(rng);
    if (u != v && !edge_set.count({std::min(u, v), std::max(u, v)})) return {u, v};
  }
}

template <std::size_t kEdges, std::size_t kBorders>
Edges MapWithOutside(int regions, const std::pair<int, int> (&adjacency)[kEdges], const int (&border)[kBorders]) {
  Edges edges(std::begin(adjacency), std::end(adjacency));
  for (const int b : border) edges.push_back({b, regions});  // outside vertex = regions
  return edges;
}

// ---------------------------------------------------------------------------------------------------------------
// Tests.

TEST(TestPlanarity, Nominal) {
  const Edges k4 = Complete(4);
  const PlanarityResult result = TestPlanarity(4, k4);
  ASSERT_TRUE(result.error.empty());
  ASSERT_TRUE(result.planar);
  EXPECT_TRUE(IsPlanarEmbedding(4, k4, result.rotation));
  const auto faces = FacesOfRotation(result.rotation);
  ASSERT_EQ(faces.size(), 4u);
  for (const auto& face : faces) EXPECT_EQ(face.size(), 3u);
}

TEST(TestPlanarity, KuratowskiGraphsAreNotPlanar) {
  EXPECT_FALSE(CheckedPlanar(5, Complete(5)));
  EXPECT_FALSE(CheckedPlanar(6, CompleteBipartite(3, 3)));
  EXPECT_FALSE(CheckedPlanar(10, Petersen()));
  EXPECT_FALSE(CheckedPlanar(15, Subdivide(5, Complete(5))));  // passes the edge-count bound: DMP must find it
  EXPECT_FALSE(CheckedPlanar(15, Subdivide(6, CompleteBipartite(3, 3))));
  EXPECT_FALSE(CheckedPlanar(8, Complete(8)));
  EXPECT_TRUE(IsKuratowskiSubdivision(10, MinimalNonPlanarSubgraph(10, Petersen())));
}

TEST(TestPlanarity, AlmostKuratowskiGraphsArePlanar) {
  for (std::size_t drop = 0; drop < 10; ++drop) {
    Edges k5 = Complete(5);
    k5.erase(k5.begin() + static_cast<std::ptrdiff_t>(drop));
    EXPECT_TRUE(CheckedPlanar(5, k5));
  }
  for (std::size_t drop = 0; drop < 9; ++drop) {
    Edges k33 = CompleteBipartite(3, 3);
    k33.erase(k33.begin() + static_cast<std::ptrdiff_t>(drop));
    EXPECT_TRUE(CheckedPlanar(6, k33));
  }
  EXPECT_TRUE(CheckedPlanar(7, CompleteBipartite(2, 5)));
}

TEST(TestPlanarity, GridAndWheelArePlanar) {
  EXPECT_TRUE(CheckedPlanar(120, Grid(10, 12)));
  EXPECT_TRUE(CheckedPlanar(2, Grid(1, 2)));
  EXPECT_TRUE(CheckedPlanar(4, Wheel(3)));
  EXPECT_TRUE(CheckedPlanar(21, Wheel(20)));
}

TEST(TestPlanarity, RandomTriangulationsArePlanar) {
  std::mt19937 rng(12345);
  for (const int n : {4, 5, 8, 30, 100, 200}) {
    for (int trial = 0; trial < 3; ++trial) {
      const Edges edges = RandomTriangulation(n, rng);
      ASSERT_EQ(static_cast<int>(edges.size()), 3 * n - 6);
      const PlanarityResult result = TestPlanarity(n, edges);
      ASSERT_TRUE(result.planar) << "n=" << n;
      EXPECT_TRUE(IsPlanarEmbedding(n, edges, result.rotation));
      const auto faces = FacesOfRotation(result.rotation);
      EXPECT_EQ(static_cast<int>(faces.size()), 2 * n - 4);
      for (const auto& face : faces) EXPECT_EQ(face.size(), 3u);
    }
  }
}

TEST(TestPlanarity, TriangulationPlusAnEdgeIsNotPlanar) {
  std::mt19937 rng(777);
  for (const int n : {5, 12, 60, 150}) {
    const Edges edges = RandomTriangulation(n, rng);
    const auto [u, v] = RandomNonEdge(n, edges, rng);
    Edges plus = edges;
    plus.push_back({u, v});
    EXPECT_FALSE(CheckedPlanar(n, plus));  // E = 3V - 5: the quick reject
    Edges via = edges;                     // u - n - v: within the edge bound, so DMP must decide
    via.push_back({u, n});
    via.push_back({n, v});
    EXPECT_FALSE(CheckedPlanar(n + 1, via)) << "n=" << n;
  }
}

TEST(TestPlanarity, SubgraphsOfTriangulationsArePlanar) {
  std::mt19937 rng(99);
  for (const int keep_percent : {90, 70, 50, 35, 20}) {
    for (int trial = 0; trial < 4; ++trial) {
      Edges edges = RandomTriangulation(80, rng);
      edges.resize(edges.size() * keep_percent / 100);  // edges are shuffled
      EXPECT_TRUE(CheckedPlanar(80, edges)) << keep_percent << "%";
    }
  }
}

TEST(TestPlanarity, RandomGraphAnswersAreCertified) {
  std::mt19937 rng(2024);
  int planar = 0;
  int non_planar = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int n = std::uniform_int_distribution<int>(5, 11)(rng);
    Edges all = Complete(n);
    std::shuffle(all.begin(), all.end(), rng);
    all.resize(std::uniform_int_distribution<std::size_t>(n, std::min<std::size_t>(all.size(), 3 * n - 6))(rng));
    if (CheckedPlanar(n, all)) {
      ++planar;
    } else {
      ++non_planar;
      EXPECT_TRUE(IsKuratowskiSubdivision(n, MinimalNonPlanarSubgraph(n, all))) << "trial " << trial;
    }
  }
  EXPECT_GT(planar, 30);
  EXPECT_GT(non_planar, 30);
}

TEST(TestPlanarity, DisconnectedGraphs) {
  // K4 on 0..3, triangle 4..6, isolated 7, edge 8-9, wheel 10..15.
  const Edges edges = Concat(Concat(Concat(Complete(4), Shifted(Complete(3), 4)), {{8, 9}}), Shifted(Wheel(5), 10));
  EXPECT_TRUE(CheckedPlanar(16, edges));
  EXPECT_FALSE(CheckedPlanar(11, Concat(Complete(4), Shifted(Complete(5), 6))));
  EXPECT_FALSE(CheckedPlanar(12, Concat(Grid(2, 3), Shifted(CompleteBipartite(3, 3), 6))));
  EXPECT_TRUE(CheckedPlanar(30, {}));
}

TEST(TestPlanarity, CutVertices) {
  EXPECT_TRUE(CheckedPlanar(7, Concat(Complete(4), Shifted(Complete(4), 3))));   // two K4 sharing vertex 3
  EXPECT_TRUE(CheckedPlanar(5, {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {4, 2}}));  // bowtie
  // Five K4 around one hub, plus pendant paths and a bridge to a grid.
  Edges flower;
  for (int k = 0; k < 5; ++k) {
    for (const auto& [u, v] : Complete(4)) flower.push_back({u == 0 ? 0 : u + 3 * k, v + 3 * k});
  }
  flower = Concat(flower, {{1, 16}, {16, 17}, {2, 18}, {18, 19}});
  flower = Concat(flower, Shifted(Grid(3, 3), 20));
  EXPECT_TRUE(CheckedPlanar(29, flower));
  EXPECT_FALSE(CheckedPlanar(9, Concat(Complete(4), Shifted(Complete(5), 4))));  // K5 hanging off a K4
  EXPECT_FALSE(CheckedPlanar(19, Concat(Concat(Complete(4), {{3, 4}}), Shifted(Subdivide(5, Complete(5)), 4))));
}

TEST(TestPlanarity, Trees) {
  Edges path;
  Edges star;
  for (int i = 0; i + 1 < 50; ++i) path.push_back({i, i + 1});
  for (int i = 1; i < 50; ++i) star.push_back({0, i});
  EXPECT_TRUE(CheckedPlanar(50, path));
  EXPECT_TRUE(CheckedPlanar(50, star));
  std::mt19937 rng(5);
  Edges tree;
  for (int v = 1; v < 200; ++v) tree.push_back({std::uniform_int_distribution<int>(0, v - 1)(rng), v});
  EXPECT_TRUE(CheckedPlanar(200, tree));
  EXPECT_EQ(FacesOfRotation(TestPlanarity(200, tree).rotation).size(), 1u);
}

TEST(TestPlanarity, TinyGraphs) {
  const PlanarityResult empty = TestPlanarity(0, {});
  EXPECT_TRUE(empty.planar);
  EXPECT_TRUE(empty.rotation.empty());
  EXPECT_TRUE(FacesOfRotation(empty.rotation).empty());
  const PlanarityResult single = TestPlanarity(1, {});
  ASSERT_TRUE(single.planar);
  EXPECT_EQ(single.rotation, std::vector<std::vector<int>>{{}});
  EXPECT_EQ(FacesOfRotation(single.rotation), std::vector<std::vector<int>>{{0}});
  EXPECT_TRUE(CheckedPlanar(2, {{1, 0}}));
  EXPECT_TRUE(CheckedPlanar(3, {{0, 1}, {1, 2}, {2, 0}}));
}

TEST(TestPlanarity, InvalidInput) {
  const auto error = [](int n, const Edges& edges) {
    const PlanarityResult result = TestPlanarity(n, edges);
    if (!result.error.empty()) {
      EXPECT_FALSE(result.planar);
      EXPECT_TRUE(result.rotation.empty());
    }
    return result.error;
  };
  EXPECT_NE(error(-1, {}), "");
  EXPECT_NE(error(3, {{0, 3}}).find("out of range"), std::string::npos);
  EXPECT_NE(error(3, {{-1, 0}}).find("out of range"), std::string::npos);
  EXPECT_NE(error(3, {{1, 1}}).find("self-loop"), std::string::npos);
  EXPECT_NE(error(3, {{0, 1}, {1, 2}, {0, 1}}).find("duplicate"), std::string::npos);
  EXPECT_NE(error(3, {{0, 1}, {1, 2}, {2, 1}}).find("duplicate"), std::string::npos);
  EXPECT_NE(error(5, Concat(Complete(5), {{4, 0}})).find("duplicate"), std::string::npos);  // before the quick reject
  EXPECT_EQ(error(4, Complete(4)), "");
}

TEST(TestPlanarity, Deterministic) {
  std::mt19937 rng(1);
  const Edges edges = RandomTriangulation(120, rng);
  EXPECT_EQ(TestPlanarity(120, edges).rotation, TestPlanarity(120, edges).rotation);
}

TEST(FacesOfRotation, Conventions) {
  // Triangle 0,1,2 counter-clockwise: rotation[0] = {1, 2} etc.; inner face traced 0,1,2, outer face 0,2,1.
  const std::vector<std::vector<int>> rotation{{1, 2}, {2, 0}, {0, 1}};
  EXPECT_EQ(FacesOfRotation(rotation), (std::vector<std::vector<int>>{{0, 1, 2}, {0, 2, 1}}));
  EXPECT_EQ(FacesOfRotation({{1}, {0}, {}}), (std::vector<std::vector<int>>{{0, 1}, {2}}));
  EXPECT_TRUE(FacesOfRotation({{1}, {}}).empty());  // asymmetric
  EXPECT_TRUE(FacesOfRotation({{5}}).empty());      // out of range
}

TEST(TestPlanarity, SmallWorldMapsWithOutsideArePlanar) {
  const std::vector<std::pair<int, Edges>> maps{
      {kRegions2P, MapWithOutside(kRegions2P, kAdjacency2P, kBorder2P)},
      {kRegions3P, MapWithOutside(kRegions3P, kAdjacency3P, kBorder3P)},
      {kRegions4P, MapWithOutside(kRegions4P, kAdjacency4P, kBorder4P)},
      {kRegions5P, MapWithOutside(kRegions5P, kAdjacency5P, kBorder5P)},
  };
  for (const auto& [regions, edges] : maps) {
    const int n = regions + 1;
    const auto start = std::chrono::steady_clock::now();
    const PlanarityResult result = TestPlanarity(n, edges);
    const auto elapsed = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start);
    std::cout << "[ map ] " << regions << " regions + outside, " << edges.size()
              << " edges: " << elapsed.count() << " us\n";
    ASSERT_TRUE(result.error.empty()) << result.error;
    ASSERT_TRUE(result.planar) << regions << " regions";
    EXPECT_TRUE(IsPlanarEmbedding(n, edges, result.rotation));
    EXPECT_EQ(ComponentCount(n, edges), 1);
    EXPECT_EQ(n - static_cast<int>(edges.size()) + static_cast<int>(FacesOfRotation(result.rotation).size()), 2);
  }
}

// Its time is measured by micro_bench (BM_PlanarityOfATriangulation), not here.
TEST(TestPlanarity, ALargeTriangulationIsPlanar) {
  std::mt19937 rng(31337);
  const Edges edges = RandomTriangulation(200, rng);
  EXPECT_TRUE(TestPlanarity(200, edges).planar);
}

}  // namespace
}  // namespace swref::engine
