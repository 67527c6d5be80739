#include "stages/common/shared_buffer.h"

namespace mapindex {

SharedBuffer& SharedBuffer::instance() {
  static SharedBuffer shared;
  return shared;
}

}  // namespace mapindex
