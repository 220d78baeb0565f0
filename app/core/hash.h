// SHA-256 (OpenSSL) as lowercase hex: signatures of bench runs and, later, the record's hash chain.
#pragma once

#include <string>
#include <string_view>

namespace swref::core {

std::string Sha256Hex(std::string_view data);

}  // namespace swref::core
