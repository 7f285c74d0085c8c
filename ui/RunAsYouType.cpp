#include "RunAsYouType.hpp"

#include <algorithm>

namespace kw {

RunAsYouType::RunAsYouType(QObject* parent)
    : QObject(parent)
{
    pause_.setSingleShot(true);
    prepare_.setSingleShot(true);
    setDelay(400);
    connect(&pause_, &QTimer::timeout, this, &RunAsYouType::pauseOver);
    connect(&prepare_, &QTimer::timeout, this, [this] {
        if (enabled_ && !busy_)
            emit prepareDue();
    });
}

void RunAsYouType::setDelay(int ms)
{
    pause_.setInterval(ms);
    prepare_.setInterval(ms - std::min(compileLeadMs_, ms / 2));
}

void RunAsYouType::setCompileTime(double ms)
{
    // A little more than the last compile took, so that the next one ends before the
    // pause does even on a busy machine: a small kernel's 20 to 60 ms vary that much.
    compileLeadMs_ = std::max(150, int(ms * 1.25));
    setDelay(delay());
}

void RunAsYouType::setEnabled(bool on)
{
    enabled_ = on;
    if (!on) {
        pause_.stop();
        prepare_.stop();
        pending_ = false;
    }
}

void RunAsYouType::edited()
{
    if (enabled_) {
        pause_.start();
        prepare_.start();
    }
}

void RunAsYouType::setBusy(bool busy)
{
    busy_ = busy;
    if (!busy && pending_ && enabled_ && !pause_.isActive()) {
        pending_ = false;
        emit runDue();
    }
}

void RunAsYouType::pauseOver()
{
    if (!enabled_)
        return;
    emit pauseEnded();
    if (busy_) {
        pending_ = true;
        return;
    }
    pending_ = false;
    emit runDue();
}

} // namespace kw
