// The document loader: JSON text -> parsed, validated Document (no files are read:
// the document has no folder, and source_file/init paths resolve nowhere useful).
#include "FuzzInput.hpp"
#include "doc/DocumentReader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    kw::fuzz::refusalsOnly([&] { kw::DocumentReader::readString(std::string(kw::fuzz::text(data, size)), {}); });
    return 0;
}
