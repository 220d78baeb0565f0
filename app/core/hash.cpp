#include "app/core/hash.h"

#include <openssl/evp.h>

#include <array>
#include <stdexcept>

namespace swref::core {

std::string Sha256Hex(std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (EVP_Digest(data.data(), data.size(), digest.data(), &size, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL SHA-256 failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(size * 2);
  for (unsigned int i = 0; i < size; ++i) hex += kHex[digest[i] >> 4], hex += kHex[digest[i] & 15];
  return hex;
}

}  // namespace swref::core
