#pragma once
// Host bytes whose growth leaves the new bytes as they are instead of zeroing them:
// a buffer about to be filled whole (from a file, a payload, a device) is written once,
// not twice. Where zeroes are wanted they are asked for (HostBuffer's constructor).
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace kw {

template <typename T> class UninitialisedAllocator : public std::allocator<T> {
public:
    template <typename U> struct rebind {
        using other = UninitialisedAllocator<U>;
    };
    UninitialisedAllocator() = default;
    template <typename U> UninitialisedAllocator(const UninitialisedAllocator<U>&) noexcept { }

    // Value-initialisation (a zero for bytes) becomes default-initialisation (nothing).
    template <typename U> void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>)
    {
        ::new (static_cast<void*>(p)) U;
    }
    template <typename U, typename... Args> void construct(U* p, Args&&... args)
    {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

using HostBytes = std::vector<std::byte, UninitialisedAllocator<std::byte>>;

} // namespace kw
