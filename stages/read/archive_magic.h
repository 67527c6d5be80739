// Recognising an archive or compressed stream by its first bytes, used to
// decide whether an entry inside an archive is itself an archive to follow.
#pragma once

#include <cstddef>
#include <string_view>

#include "stages/common/bytes.h"

namespace mapindex::read {

enum class ArchiveMagic { none, zip, gzip, xz, zstd, bzip2, seven_zip, tar, rar, lz4 };

// Bytes needed to recognise every kind (tar's "ustar" sits at offset 257).
inline constexpr std::size_t kArchiveMagicBytes = 512;

// Looks at the first bytes of a stream (fewer than kArchiveMagicBytes only
// if the stream is shorter).
ArchiveMagic sniff_archive(Bytes prefix);

std::string_view to_string(ArchiveMagic magic);

}  // namespace mapindex::read
