#pragma once
// The CUDA Toolkit's licence lets the packages carry only some of its device
// headers (cuda_fp16.h) and ships
// the libcu++ part of CCCL (<cuda/std/...>, open source). When a kernel includes
// one of the others and it is not found, the note says what to install.
#include "compile/Diagnostic.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kw {

// A header of the CUDA Toolkit that device code uses and the packages may not carry.
bool isToolkitDeviceHeader(std::string_view header);

// The toolkit header named in a "cannot open source file" message, or "" when
// the message is another one or names a header that is not the toolkit's.
std::string unbundledToolkitHeader(const std::string& message);

// Appends to `d` a note naming what to install, when it reports a missing toolkit header:
// not when `toolkitDirs` (the include folders in use) hold a whole toolkit that lacks it.
void addUnbundledHeaderNote(Diagnostic& d, const std::vector<std::filesystem::path>& toolkitDirs);

} // namespace kw
