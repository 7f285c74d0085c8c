#include "sim/SimResidentBuffers.hpp"

#include "sim/PtxModule.hpp"
#include "util/Error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace kw {

SimResidentBuffers::SimResidentBuffers(SimBackend& backend)
    : backend_(backend)
{
}

std::size_t SimResidentBuffers::add(const BufferArg& buffer)
{
    if (!buffer.global.empty()) // the buffer is that variable from now on
        std::erase_if(variables_, [&](const BufferArg& v) { return v.global == buffer.global; });
    buffers_.push_back(buffer);
    written_.emplace_back();
    if (tracking_ && buffer.direction == Direction::Out)
        written_.back().assign(buffer.data.byteSize(), 0);
    return buffers_.size() - 1;
}

void SimResidentBuffers::read(std::size_t index, HostBuffer& into)
{
    if (index >= buffers_.size())
        throw Error(ErrorCategory::Internal, fmt::format("resident buffer {} of {}", index, buffers_.size()));
    const HostBuffer& b = buffers_[index].data;
    if (into.byteSize() != b.byteSize())
        throw Error(ErrorCategory::Internal,
                    fmt::format("buffer {} is {} bytes but {} bytes were asked for", buffers_[index].name, b.byteSize(),
                                into.byteSize()));
    std::memcpy(into.data(), b.data(), b.byteSize());
}

void SimResidentBuffers::copy(std::size_t from, std::size_t fromOffset, std::size_t to, std::size_t toOffset,
                              std::size_t bytes)
{
    if (from >= buffers_.size() || to >= buffers_.size() || fromOffset + bytes > buffers_[from].data.byteSize()
        || toOffset + bytes > buffers_[to].data.byteSize())
        throw Error(ErrorCategory::Internal, "a copy outside the resident buffers");
    // memmove: a copy within one buffer may overlap.
    std::memmove(static_cast<std::byte*>(buffers_[to].data.data()) + toOffset,
                 static_cast<const std::byte*>(buffers_[from].data.data()) + fromOffset, bytes);
    if (!tracking_ || (written_[from].empty() && written_[to].empty()))
        return;
    if (written_[to].empty()) // all data until now; the copy may bring bytes that are not
        written_[to].assign(buffers_[to].data.byteSize(), 1);
    if (written_[from].empty())
        std::fill_n(written_[to].begin() + long(toOffset), bytes, std::uint8_t(1));
    else
        std::memmove(written_[to].data() + toOffset, written_[from].data() + fromOffset, bytes);
}

void SimResidentBuffers::fill(std::size_t index, std::size_t offset, const std::vector<std::byte>& element,
                              std::size_t count)
{
    if (index >= buffers_.size() || offset + count * element.size() > buffers_[index].data.byteSize())
        throw Error(ErrorCategory::Internal, "a fill outside the resident buffers");
    auto* at = static_cast<std::byte*>(buffers_[index].data.data()) + offset;
    for (std::size_t k = 0; k < count; ++k)
        std::memcpy(at + k * element.size(), element.data(), element.size());
    if (tracking_ && !written_[index].empty())
        std::fill_n(written_[index].begin() + long(offset), count * element.size(), std::uint8_t(1));
}

LaunchReport SimResidentBuffers::launch(const KernelImage& kernel, const std::vector<LaunchArg>& args,
                                        const LaunchConfig& config)
{
    if (kernel.ptx != modulePtx_) {
        // Another module: its variables start from their initial values, as a freshly
        // loaded module's do.
        double parseMs = 0;
        const auto mod = backend_.module(kernel.ptx, parseMs);
        variables_.clear();
        for (const sim::GlobalVar& g : mod->globals) {
            if (g.space == sim::Space::Shared)
                continue;
            const bool filled
                = std::any_of(buffers_.begin(), buffers_.end(), [&](const BufferArg& b) { return b.global == g.name; });
            if (filled)
                continue;
            BufferArg v{"module variable '" + g.name + "'", Direction::InOut, HostBuffer(DType::U8, g.size), g.name};
            std::copy_n(g.init.begin(), std::min<std::size_t>(g.init.size(), g.size),
                        reinterpret_cast<std::uint8_t*>(v.data.data()));
            variables_.push_back(std::move(v));
        }
        modulePtx_ = kernel.ptx;
    }
    if (tracking_ && config.check != CheckTool::Initcheck) {
        tracking_ = false;
        written_.assign(buffers_.size(), {});
    }
    std::vector<std::uint8_t*> written;
    if (tracking_)
        for (auto& w : written_)
            written.push_back(w.empty() ? nullptr : w.data());
    LaunchConfig once = config;
    once.warmup = 0;
    once.repeats = 0;
    // The launch sees the buffers then the variables, so argument indices are unchanged.
    const std::size_t own = buffers_.size();
    std::vector<BufferArg> all = std::move(buffers_);
    all.insert(all.end(), std::make_move_iterator(variables_.begin()), std::make_move_iterator(variables_.end()));
    variables_.clear();
    const auto giveBack = [&] {
        buffers_.assign(std::make_move_iterator(all.begin()), std::make_move_iterator(all.begin() + long(own)));
        variables_.assign(std::make_move_iterator(all.begin() + long(own)), std::make_move_iterator(all.end()));
    };
    try {
        LaunchReport report = backend_.launch(kernel, all, args, once, std::move(written));
        giveBack();
        return report;
    } catch (...) {
        giveBack();
        throw;
    }
}

} // namespace kw
