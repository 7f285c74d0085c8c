#pragma once
// Reads newline-terminated lines from a file descriptor, in time linear in the input:
// each byte is searched for '\n' once. A line longer than the cap is skipped to its end
// and reported as too long, so one oversized message costs memory of one chunk, not
// of the line. Raw bytes after a line (binary frames) come from the same buffer.
#include <cstddef>
#include <optional>
#include <string>

namespace kw {

class LineReader {
public:
    enum class Status { Line, TooLong, End };

    // `pending` holds bytes already read from `fd` (by an earlier process).
    LineReader(int fd, std::size_t maxLine, std::string pending = {});

    // The next line without its '\n' (and a '\r' before it) in `line`. TooLong: the line
    // exceeded the cap and was skipped; End: no more input. A last line without a
    // newline is returned as a line.
    Status readLine(std::string& line);

    // Exactly `n` raw bytes following the last line; false when the input ends first
    // (what was there is consumed).
    bool readBytes(std::size_t n, std::string& out);

    // Up to `n` raw bytes following the last line, straight into `dst`: the bytes already
    // read, else one read of the descriptor (large frames skip the line buffer). 0 at end
    // of input.
    std::size_t readInto(std::byte* dst, std::size_t n);

    // The bytes that come next, as many as are at hand (at least one, or one chunk read
    // from the descriptor); false at end of input.
    bool readSome(std::string& out);

    // Bytes read from the descriptor but not yet returned.
    std::string unread() const { return buffer_.substr(start_); }

    std::size_t maxLine() const noexcept { return maxLine_; }

private:
    bool fill();    // appends one chunk; false at end of input
    void compact(); // drops consumed bytes when they dominate the buffer

    int fd_;
    std::size_t maxLine_;
    std::string buffer_;
    std::size_t start_ = 0;   // first unconsumed byte
    std::size_t scanned_ = 0; // bytes after start_ already searched for '\n'
    bool eof_ = false;
};

} // namespace kw
