#include "RunAsYouType.hpp"

namespace kw {

RunAsYouType::RunAsYouType(QObject* parent)
    : QObject(parent)
{
    pause_.setSingleShot(true);
    pause_.setInterval(400);
    connect(&pause_, &QTimer::timeout, this, &RunAsYouType::pauseOver);
}

void RunAsYouType::setEnabled(bool on)
{
    enabled_ = on;
    if (!on) {
        pause_.stop();
        pending_ = false;
    }
}

void RunAsYouType::edited()
{
    if (enabled_)
        pause_.start();
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
    if (busy_) {
        pending_ = true;
        return;
    }
    pending_ = false;
    emit runDue();
}

} // namespace kw
