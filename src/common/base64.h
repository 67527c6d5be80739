// Base64 (RFC 4648, standard alphabet, '=' padding): the one copy every stage
// and test uses, backed by OpenSSL's EVP_EncodeBlock/EVP_DecodeBlock. The HTML
// audit inlines thumbnails as data: URIs with it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mapindex {

// "Zm9vYmFy" for "foobar"; no line breaks.
std::string base64_encode(std::string_view bytes);
// The bytes of `text` (no whitespace, length a multiple of 4, standard
// alphabet), or nullopt when it is not such base64.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace mapindex
