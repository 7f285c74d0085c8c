#include "debug/DapFraming.hpp"

#include "util/Text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fmt/format.h>

namespace kw::debug {

namespace {

bool sameWord(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

} // namespace

DapFraming::DapFraming(DapLimits limits)
    : limits_(limits)
{
}

void DapFraming::feed(std::string_view bytes)
{
    if (!broken_.empty())
        return;
    pending_.append(bytes);
    consume();
}

std::optional<std::string> DapFraming::next()
{
    if (ready_.empty())
        return std::nullopt;
    std::string body = std::move(ready_.front());
    ready_.pop_front();
    return body;
}

std::size_t DapFraming::wanted() const
{
    if (!body_)
        return 1;
    return *body_ > pending_.size() ? *body_ - pending_.size() : 1;
}

std::string DapFraming::frame(const nlohmann::json& message)
{
    // Invalid UTF-8 (a register's text never is; a kernel's printf may be) is replaced
    // rather than thrown over: the client gets a message it can parse.
    const std::string body = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return fmt::format("Content-Length: {}\r\n\r\n{}", body.size(), body);
}

void DapFraming::consume()
{
    std::size_t at = 0;
    while (broken_.empty()) {
        if (!body_) {
            bool done = false;
            while (at < pending_.size() && !done && broken_.empty())
                done = readHeaderByte(pending_[at++]);
            if (!done)
                break;
            headerDone();
            continue;
        }
        if (pending_.size() - at < *body_)
            break;
        ready_.push_back(pending_.substr(at, *body_));
        at += *body_;
        body_.reset();
    }
    pending_.erase(0, at);
    if (!broken_.empty())
        pending_.clear();
}

// True once the header's empty line has been read.
bool DapFraming::readHeaderByte(char c)
{
    header_ += c;
    if (header_.size() > limits_.headerBytes) {
        broken_ = fmt::format("a message header longer than {} bytes", limits_.headerBytes);
        return false;
    }
    if (c != '\n')
        return false;
    // The line just ended is empty: "\n" or "\r\n" after the previous line's end (or at the start).
    const std::size_t n = header_.size();
    const bool crlf = n >= 2 && header_[n - 2] == '\r';
    const std::size_t lineStart = n - (crlf ? 2 : 1);
    return lineStart == 0 || header_[lineStart - 1] == '\n';
}

void DapFraming::headerDone()
{
    std::optional<std::size_t> length;
    for (const auto& rawLine : splitLines(header_)) {
        const std::string_view line = trim(rawLine);
        if (line.empty())
            continue;
        const auto colon = line.find(':');
        if (colon == std::string_view::npos) {
            broken_ = fmt::format("a header line without a colon: \"{}\"", std::string(line.substr(0, 80)));
            return;
        }
        if (!sameWord(trim(line.substr(0, colon)), "Content-Length"))
            continue; // Content-Type and the like say nothing the body does not
        const std::string_view value = trim(line.substr(colon + 1));
        std::size_t n = 0;
        const auto r = std::from_chars(value.data(), value.data() + value.size(), n);
        if (value.empty() || r.ec == std::errc::result_out_of_range
            || (r.ec == std::errc() && r.ptr == value.data() + value.size() && n > limits_.bodyBytes)) {
            broken_ = fmt::format("Content-Length {} is over the limit of {} bytes", std::string(value.substr(0, 40)),
                                  limits_.bodyBytes);
            if (value.empty())
                broken_ = "Content-Length without a value";
            return;
        }
        if (r.ec != std::errc() || r.ptr != value.data() + value.size()) {
            broken_ = fmt::format("Content-Length \"{}\" is not a number", std::string(value.substr(0, 40)));
            return;
        }
        if (length && *length != n) {
            broken_ = "two different Content-Length fields";
            return;
        }
        length = n;
    }
    if (!length) {
        broken_ = "a message header without Content-Length";
        return;
    }
    header_.clear();
    body_ = *length;
}

} // namespace kw::debug
