// Planarity test: Hopcroft-Tarjan blocks + Demoucron-Malgrange-Pertuiset per block. See planarity.h.
#include "engine/planarity.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace swref::engine {
namespace {

constexpr int kNone = -1;

using Edges = std::vector<std::pair<int, int>>;
using Adjacency = std::vector<std::vector<std::pair<int, int>>>;  // per vertex: (neighbour, edge id)

Adjacency BuildAdjacency(int vertex_count, const Edges& edges) {
  Adjacency adj(vertex_count);
  for (int e = 0; e < static_cast<int>(edges.size()); ++e) {
    adj[edges[e].first].push_back({edges[e].second, e});
    adj[edges[e].second].push_back({edges[e].first, e});
  }
  return adj;
}

std::string ValidateInput(int vertex_count, const Edges& edges) {
  if (vertex_count < 0) return "negative vertex count " + std::to_string(vertex_count);
  std::map<std::pair<int, int>, int> seen;  // normalised edge -> index
  for (int i = 0; i < static_cast<int>(edges.size()); ++i) {
    const auto [u, v] = edges[i];
    const std::string name = "edge " + std::to_string(i) + " (" + std::to_string(u) + "," + std::to_string(v) + ")";
    if (u < 0 || v < 0 || u >= vertex_count || v >= vertex_count) {
      return name + ": vertex out of range [0," + std::to_string(vertex_count) + ")";
    }
    if (u == v) return name + ": self-loop";
    const auto [it, fresh] = seen.insert({{std::min(u, v), std::max(u, v)}, i});
    if (!fresh) return name + ": duplicate of edge " + std::to_string(it->second);
  }
  return "";
}

// Hopcroft-Tarjan biconnected components by an iterative DFS with an edge stack. Each block is a list of edge ids;
// a bridge is a block of one edge. Isolated vertices belong to no block.
class BlockFinder {
 public:
  explicit BlockFinder(const Adjacency& adj) : adj_(adj), disc_(adj.size(), kNone), low_(adj.size(), 0) {}

  std::vector<std::vector<int>> Run() {
    for (int root = 0; root < static_cast<int>(adj_.size()); ++root) {
      if (disc_[root] == kNone) Search(root);
    }
    return std::move(blocks_);
  }

 private:
  struct Frame {
    int vertex, parent_edge;
    std::size_t next;
  };

  void Search(int root) {
    disc_[root] = low_[root] = time_++;
    std::vector<Frame> stack{{root, kNone, 0}};
    while (!stack.empty()) {
      Frame& top = stack.back();
      const int v = top.vertex;
      if (top.next < adj_[v].size()) {
        const auto [w, e] = adj_[v][top.next++];
        if (e == top.parent_edge) continue;
        if (disc_[w] == kNone) {
          edge_stack_.push_back(e);
          disc_[w] = low_[w] = time_++;
          stack.push_back({w, e, 0});  // invalidates `top`
        } else if (disc_[w] < disc_[v]) {
          edge_stack_.push_back(e);
          low_[v] = std::min(low_[v], disc_[w]);
        }
        continue;
      }
      const int parent_edge = top.parent_edge;
      stack.pop_back();
      if (stack.empty()) break;
      const int parent = stack.back().vertex;
      low_[parent] = std::min(low_[parent], low_[v]);
      if (low_[v] >= disc_[parent]) PopBlock(parent_edge);
    }
  }

  void PopBlock(int last_edge) {
    std::vector<int>& block = blocks_.emplace_back();
    while (block.empty() || block.back() != last_edge) {
      block.push_back(edge_stack_.back());
      edge_stack_.pop_back();
    }
  }

  const Adjacency& adj_;
  std::vector<int> disc_;
  std::vector<int> low_;
  std::vector<int> edge_stack_;
  std::vector<std::vector<int>> blocks_;
  int time_ = 0;
};

// DMP on one biconnected block with >= 3 vertices, renumbered 0..n-1. Faces of the partial embedding H are kept as
// directed simple cycles with the face on the left, every dart of H on exactly one face.
class BlockEmbedder {
 public:
  BlockEmbedder(int vertex_count, const Edges& edges)
      : n_(vertex_count),
        edges_(edges),
        adj_(BuildAdjacency(vertex_count, edges)),
        vertex_embedded_(vertex_count, 0),
        edge_embedded_(edges.size(), 0) {}

  // True iff the block is planar.
  bool Embed() {
    if (static_cast<int>(edges_.size()) > 3 * n_ - 6) return false;
    EmbedInitialCycle();
    while (true) {
      const std::vector<Fragment> fragments = FindFragments();
      if (fragments.empty()) return true;
      const std::vector<std::vector<int>> vertex_faces = VertexFaces();
      int chosen = kNone;
      int face = kNone;
      for (int i = 0; i < static_cast<int>(fragments.size()); ++i) {
        const std::vector<int> admissible = AdmissibleFaces(fragments[i], vertex_faces);
        if (admissible.empty()) return false;
        if (chosen == kNone || admissible.size() == 1) {
          chosen = i;
          face = admissible.front();
        }
        if (admissible.size() == 1) break;  // forced: embed it first
      }
      EmbedPath(face, FragmentPath(fragments[chosen]));
    }
  }

  // Rotation system read off the faces: a face ... u, v, w ... puts u right after w in rotation[v].
  std::vector<std::vector<int>> Rotation() const {
    std::vector<std::vector<std::pair<int, int>>> successor(n_);  // per vertex: (w, u)
    for (const std::vector<int>& face : faces_) {
      const std::size_t m = face.size();
      for (std::size_t k = 0; k < m; ++k) {
        successor[face[k]].push_back({face[(k + 1) % m], face[(k + m - 1) % m]});
      }
    }
    std::vector<std::vector<int>> rotation(n_);
    std::vector<int> next(n_, kNone);
    for (int v = 0; v < n_; ++v) {
      for (const auto& [w, u] : successor[v]) next[w] = u;
      const int start = successor[v].front().first;
      int w = start;
      do {
        rotation[v].push_back(w);
        w = next[w];
      } while (w != start);
    }
    return rotation;
  }

 private:
  struct Fragment {
    std::vector<int> attachments;  // sorted embedded vertices it touches
    int edge = kNone;              // a lone unembedded edge between embedded vertices, or else
    int seed = kNone;              // an unembedded vertex of the fragment with an embedded neighbour
  };

  void EmbedInitialCycle() {
    const auto [u, v] = edges_.front();
    const std::vector<int> cycle = BfsPath(u, 0, [](int) { return true; }, [v = v](int x) { return x == v; });
    faces_ = {cycle, std::vector<int>(cycle.rbegin(), cycle.rend())};
    edge_embedded_[0] = 1;
    MarkPathEmbedded(cycle);
  }

  // BFS from `start` through vertices accepted by `passable`, never using edge `banned_edge`; returns the path from
  // start to the first vertex satisfying `is_goal` (empty if none is reachable).
  template <class Passable, class Goal>
  std::vector<int> BfsPath(int start, int banned_edge, Passable passable, Goal is_goal) const {
    std::vector<int> parent(n_, kNone);
    std::vector<int> queue{start};
    parent[start] = start;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int x = queue[head];
      if (is_goal(x)) {
        std::vector<int> path{x};
        while (path.back() != start) path.push_back(parent[path.back()]);
        return {path.rbegin(), path.rend()};
      }
      for (const auto& [y, e] : adj_[x]) {
        if (e == banned_edge || parent[y] != kNone || !passable(y)) continue;
        parent[y] = x;
        queue.push_back(y);
      }
    }
    return {};
  }

  std::vector<Fragment> FindFragments() const {
    std::vector<Fragment> fragments;
    for (int e = 0; e < static_cast<int>(edges_.size()); ++e) {
      const auto [u, v] = edges_[e];
      if (edge_embedded_[e] || !vertex_embedded_[u] || !vertex_embedded_[v]) continue;
      fragments.push_back({{std::min(u, v), std::max(u, v)}, e, kNone});
    }
    std::vector<char> seen(n_, 0);
    for (int v = 0; v < n_; ++v) {
      if (!vertex_embedded_[v] && !seen[v]) fragments.push_back(ComponentFragment(v, seen));
    }
    return fragments;
  }

  // The fragment made of the component of G - V(H) containing `start`, with its attachment edges.
  Fragment ComponentFragment(int start, std::vector<char>& seen) const {
    Fragment fragment;
    std::vector<int> queue{start};
    seen[start] = 1;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int x = queue[head];
      for (const auto& [y, e] : adj_[x]) {
        if (vertex_embedded_[y]) {
          fragment.attachments.push_back(y);
          if (fragment.seed == kNone) fragment.seed = x;
        } else if (!seen[y]) {
          seen[y] = 1;
          queue.push_back(y);
        }
      }
    }
    std::sort(fragment.attachments.begin(), fragment.attachments.end());
    fragment.attachments.erase(std::unique(fragment.attachments.begin(), fragment.attachments.end()),
                               fragment.attachments.end());
    return fragment;
  }

  std::vector<std::vector<int>> VertexFaces() const {
    std::vector<std::vector<int>> vertex_faces(n_);
    for (int f = 0; f < static_cast<int>(faces_.size()); ++f) {
      for (const int v : faces_[f]) vertex_faces[v].push_back(f);
    }
    return vertex_faces;
  }

  // Faces containing every attachment, ascending.
  static std::vector<int> AdmissibleFaces(const Fragment& fragment,
                                          const std::vector<std::vector<int>>& vertex_faces) {
    std::vector<int> faces = vertex_faces[fragment.attachments.front()];
    for (std::size_t k = 1; k < fragment.attachments.size() && !faces.empty(); ++k) {
      const std::vector<int>& other = vertex_faces[fragment.attachments[k]];
      std::vector<int> common;
      std::set_intersection(faces.begin(), faces.end(), other.begin(), other.end(), std::back_inserter(common));
      faces = std::move(common);
    }
    return faces;
  }

  int EmbeddedNeighbour(int x, int other_than) const {
    for (const auto& [y, e] : adj_[x]) {
      if (vertex_embedded_[y] && y != other_than) return y;
    }
    return kNone;
  }

  // A path through the fragment joining two distinct attachments (there are >= 2 since the block is biconnected).
  std::vector<int> FragmentPath(const Fragment& fragment) const {
    if (fragment.edge != kNone) return {edges_[fragment.edge].first, edges_[fragment.edge].second};
    const int a = EmbeddedNeighbour(fragment.seed, kNone);
    std::vector<int> inner = BfsPath(
        fragment.seed, kNone, [this](int y) { return !vertex_embedded_[y]; },
        [this, a](int x) { return EmbeddedNeighbour(x, a) != kNone; });
    const int b = EmbeddedNeighbour(inner.back(), a);
    inner.insert(inner.begin(), a);
    inner.push_back(b);
    return inner;
  }

  // Splits face `face_id` along `path`, whose two ends lie on it, into two faces; both keep the face-on-left
  // orientation, so each new dart lies on exactly one of them.
  void EmbedPath(int face_id, const std::vector<int>& path) {
    const std::vector<int> face = faces_[face_id];
    const std::size_t m = face.size();
    const std::size_t i = std::find(face.begin(), face.end(), path.front()) - face.begin();
    const std::size_t j = std::find(face.begin(), face.end(), path.back()) - face.begin();
    std::vector<int> first;
    for (std::size_t k = i; first.empty() || k != (j + 1) % m; k = (k + 1) % m) first.push_back(face[k]);
    first.insert(first.end(), path.rbegin() + 1, path.rend() - 1);
    std::vector<int> second;
    for (std::size_t k = j; second.empty() || k != (i + 1) % m; k = (k + 1) % m) second.push_back(face[k]);
    second.insert(second.end(), path.begin() + 1, path.end() - 1);
    faces_[face_id] = std::move(first);
    faces_.push_back(std::move(second));
    MarkPathEmbedded(path);
  }

  void MarkPathEmbedded(const std::vector<int>& path) {
    for (std::size_t k = 0; k < path.size(); ++k) {
      vertex_embedded_[path[k]] = 1;
      if (k + 1 == path.size()) break;
      for (const auto& [y, e] : adj_[path[k]]) {
        if (y == path[k + 1]) edge_embedded_[e] = 1;
      }
    }
  }

  int n_;
  Edges edges_;
  Adjacency adj_;
  std::vector<char> vertex_embedded_;
  std::vector<char> edge_embedded_;
  std::vector<std::vector<int>> faces_;
};

// Embeds one block and appends its local rotations to `rotation` (concatenation at cut vertices stays planar: the
// block goes into one angle of what is already there). False iff the block is not planar.
bool EmbedBlock(const Edges& edges, const std::vector<int>& block, std::vector<std::vector<int>>& rotation) {
  std::vector<int> vertices;
  for (const int e : block) {
    vertices.push_back(edges[e].first);
    vertices.push_back(edges[e].second);
  }
  std::sort(vertices.begin(), vertices.end());
  vertices.erase(std::unique(vertices.begin(), vertices.end()), vertices.end());
  const auto local = [&vertices](int v) {
    return static_cast<int>(std::lower_bound(vertices.begin(), vertices.end(), v) - vertices.begin());
  };
  std::vector<std::vector<int>> block_rotation;
  if (block.size() == 1) {
    block_rotation = {{1}, {0}};
  } else {
    Edges local_edges;
    for (const int e : block) local_edges.push_back({local(edges[e].first), local(edges[e].second)});
    BlockEmbedder embedder(static_cast<int>(vertices.size()), local_edges);
    if (!embedder.Embed()) return false;
    block_rotation = embedder.Rotation();
  }
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    for (const int w : block_rotation[i]) rotation[vertices[i]].push_back(vertices[w]);
  }
  return true;
}

}  // namespace

PlanarityResult TestPlanarity(int vertex_count, const std::vector<std::pair<int, int>>& edges) {
  PlanarityResult result;
  result.error = ValidateInput(vertex_count, edges);
  if (!result.error.empty()) return result;
  const long long edge_count = static_cast<long long>(edges.size());
  if (vertex_count >= 3 && edge_count > 3LL * vertex_count - 6) return result;
  std::vector<std::vector<int>> rotation(vertex_count);
  const Adjacency adj = BuildAdjacency(vertex_count, edges);
  for (const std::vector<int>& block : BlockFinder(adj).Run()) {
    if (!EmbedBlock(edges, block, rotation)) return result;
  }
  result.planar = true;
  result.rotation = std::move(rotation);
  return result;
}

std::vector<std::vector<int>> FacesOfRotation(const std::vector<std::vector<int>>& rotation) {
  const int n = static_cast<int>(rotation.size());
  std::map<std::pair<int, int>, int> position;  // dart (v, w) -> index of w in rotation[v]
  for (int v = 0; v < n; ++v) {
    for (int k = 0; k < static_cast<int>(rotation[v].size()); ++k) {
      if (rotation[v][k] < 0 || rotation[v][k] >= n) return {};
      position[{v, rotation[v][k]}] = k;
    }
  }
  std::set<std::pair<int, int>> used;
  std::vector<std::vector<int>> faces;
  for (int v = 0; v < n; ++v) {
    if (rotation[v].empty()) faces.push_back({v});
    for (const int first : rotation[v]) {
      std::vector<int> face;
      int u = v;
      int w = first;
      while (used.insert({u, w}).second) {  // dart u->w, then w->(neighbour before u in rotation[w])
        face.push_back(u);
        const auto it = position.find({w, u});
        if (it == position.end()) return {};
        const int degree = static_cast<int>(rotation[w].size());
        u = std::exchange(w, rotation[w][(it->second + degree - 1) % degree]);
      }
      if (face.empty()) continue;
      if (u != v || w != first) return {};
      faces.push_back(std::move(face));
    }
  }
  return faces;
}

}  // namespace swref::engine
