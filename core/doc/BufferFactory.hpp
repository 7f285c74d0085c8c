#pragma once
// Evaluates a buffer's count and shape and fills it from its initialiser.
#include "data/NdArray.hpp"
#include "doc/Document.hpp"
#include "doc/VariableScope.hpp"

#include <filesystem>
#include <string>

namespace kw {

class BufferFactory {
public:
    // Relative initialiser files are looked up in baseDir. The scope must outlive the factory.
    BufferFactory(const VariableScope& scope, std::filesystem::path baseDir);

    // The display shape: {count} for 1-D, else the shape, whose product equals the count.
    // `field` prefixes errors ("buffers[1]"); throws kw::Error(Document) or (Expression).
    std::vector<std::size_t> shape(const BufferSpec& spec, const std::string& field) const;

    // The buffer with its initial contents, and its shape.
    NdArray create(const BufferSpec& spec, const std::string& field) const;

    // The path an initialiser file resolves to.
    std::filesystem::path resolve(const std::string& file) const;

    // Reads an initialiser file (.npy, .csv/.txt, else raw) as dtype for a buffer of
    // `count` elements (a file far larger is refused unread); throws kw::Error(Io).
    static NdArray readFile(const std::filesystem::path& path, DType dtype, std::size_t count);

private:
    void fillExpression(NdArray& array, const Initializer& init, const std::string& field) const;
    void fillFromFile(NdArray& array, const Initializer& init, const std::string& field) const;

    const VariableScope& scope_;
    std::filesystem::path baseDir_;
};

} // namespace kw
