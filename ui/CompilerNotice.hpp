#pragma once
// The strip above the editor that says, from the first screen on, that this computer
// has no CUDA compiler (NVRTC) and what to install; documents open, edit and save as
// ever. Hidden when NVRTC was found. The places looked in are in its tooltip.
#include "NoticeStrip.hpp"

namespace kw {

struct NvrtcPresence;

class CompilerNotice : public NoticeStrip {
    Q_OBJECT
public:
    explicit CompilerNotice(QWidget* parent = nullptr);

    void showFor(const NvrtcPresence& presence);
    QString text() const; // what the strip says, as plain text; empty while hidden
};

} // namespace kw
