#include "engine/json_input.h"

#include <fstream>
#include <iterator>

namespace swref::engine {

std::string CheckJsonDepth(std::string_view text, const std::string& where) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return where + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
    } else if (c == ']' || c == '}') {
      --depth;  // unbalanced text is the parser's to refuse
    }
  }
  return "";
}

Result<nlohmann::json> ParseJsonText(std::string_view text, const std::string& where) {
  using R = Result<nlohmann::json>;
  if (std::string e = CheckJsonDepth(text, where); !e.empty()) return R::Error(e);
  nlohmann::json doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded()) return R::Error(where + ": not valid JSON");
  return doc;
}

std::string CannotOpen(const std::filesystem::path& path, const std::string& what) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  std::string why;
  if (status.type() == std::filesystem::file_type::not_found) why = " (no such file)";
  else if (status.type() == std::filesystem::file_type::directory) why = " (a folder, not a file)";
  else if (status.type() != std::filesystem::file_type::unknown && !ec) why = " (not readable: check its permissions)";
  return path.string() + ": cannot open the " + what + why;
}

std::string OpenProblem(const std::ifstream& in, const std::filesystem::path& path, const std::string& what) {
  std::error_code ec;
  return !in || std::filesystem::is_directory(path, ec) ? CannotOpen(path, what) : "";
}

Result<std::string> ReadFileBytes(const std::filesystem::path& path, std::uintmax_t max_bytes, const std::string& what) {
  using R = Result<std::string>;
  std::ifstream in(path, std::ios::binary);
  if (std::string why = OpenProblem(in, path, what); !why.empty()) return R::Error(why);
  // Read at most one byte past the limit: the size a file reports may change under us (a pipe, a growing file).
  std::string bytes;
  char buffer[1 << 16];
  while (in && bytes.size() <= max_bytes) {
    in.read(buffer, sizeof buffer);
    bytes.append(buffer, static_cast<size_t>(in.gcount()));
  }
  if (bytes.size() > max_bytes) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    return R::Error(path.string() + ": the " + what + " is " + (ec ? "more than " + std::to_string(max_bytes) : std::to_string(size)) +
                    " bytes, more than the limit of " + std::to_string(max_bytes) + " bytes");
  }
  if (in.bad()) return R::Error(path.string() + ": cannot read the " + what);
  return bytes;
}

Result<nlohmann::json> ReadJsonFile(const std::filesystem::path& path, std::uintmax_t max_bytes, const std::string& what) {
  auto bytes = ReadFileBytes(path, max_bytes, what);
  if (!bytes) return Result<nlohmann::json>::Error(bytes.error());
  return ParseJsonText(*bytes, path.string());
}

}  // namespace swref::engine
