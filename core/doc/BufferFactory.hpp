#pragma once
// Evaluates a buffer's count and shape and fills it from its initialiser.
#include "data/NdArray.hpp"
#include "doc/Document.hpp"
#include "doc/VariableScope.hpp"
#include "util/Deadline.hpp"

#include <filesystem>
#include <string>

namespace kw {

class BufferFactory {
public:
    // Relative initialiser files are looked up in baseDir; for an untrusted document
    // they must lie inside it. The scope must outlive the factory.
    // With `attached`, file initialisers come from it and never from the disk.
    BufferFactory(const VariableScope& scope, std::filesystem::path baseDir, Trust trust,
                  std::shared_ptr<const AttachedFiles> attached = nullptr);

    // The display shape: {count} for 1-D, else the shape, whose product equals the count.
    // `field` prefixes errors ("buffers[1]"); throws kw::Error(Document) or (Expression).
    std::vector<std::size_t> shape(const BufferSpec& spec, const std::string& field) const;

    // The buffer with its initial contents, and its shape. A per-element expression stops
    // with kw::Error(Limit) once the deadline (setDeadline) has passed.
    NdArray create(const BufferSpec& spec, const std::string& field) const;
    void setDeadline(Deadline deadline) { deadline_ = deadline; }

    // What create() checks of a file initialiser (the file is there, readable, and holds
    // the buffer's element count), without building the buffer from an attached file.
    void checkFile(const BufferSpec& spec, const std::string& field) const;

    // The path an initialiser file resolves to; `field` names it in errors
    // (kw::Error(Untrusted) for a file outside the folder of an untrusted document).
    std::filesystem::path resolve(const std::string& file, const std::string& field) const;

    // Reads an initialiser file (.npy, .csv/.txt, else raw) as dtype for a buffer of
    // `count` elements (a file far larger is refused unread); throws kw::Error(Io).
    static NdArray readFile(const std::filesystem::path& path, DType dtype, std::size_t count);
    // The same without a size cap (a file the user chose, read whole).
    static NdArray readFile(const std::filesystem::path& path, DType dtype);

private:
    Deadline deadline_ = Deadline::none();
    void fillExpression(NdArray& array, const Initialiser& init, const std::string& field) const;
    HostBuffer fromFile(DType dtype, std::size_t count, const Initialiser& init, const std::string& field) const;
    // The job's copy of the file (nullptr without attachments: the file is on this disk).
    const NdArray* attachment(const Initialiser& init, const std::string& field) const;
    static void checkCount(const Initialiser& init, std::size_t held, std::size_t count, const std::string& field);
    NdArray readLocal(const std::string& file, DType dtype, std::size_t count, const std::string& field) const;
    // The element count of a file on this disk; a raw file's from its size, unread.
    std::size_t countLocal(const std::string& file, DType dtype, std::size_t count, const std::string& field) const;
    std::filesystem::path localFile(const std::string& file, const std::string& field) const;

    const VariableScope& scope_;
    std::filesystem::path baseDir_;
    Trust trust_;
    std::shared_ptr<const AttachedFiles> attached_;
};

} // namespace kw
