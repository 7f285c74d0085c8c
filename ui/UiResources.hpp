#pragma once

namespace kw {

// Registers kwui's compiled-in resources (icons, completion words). A static
// library's resource initialiser is dropped by the linker unless called.
void initUiResources();

} // namespace kw
