#include "UnsavedWorkGuard.hpp"

#include "RecoveryCopy.hpp"

#include <QMessageBox>

namespace kw {

UnsavedWorkGuard::UnsavedWorkGuard(Window window, QObject* parent)
    : QObject(parent)
    , window_(std::move(window))
{
    connect(&timer_, &QTimer::timeout, this, &UnsavedWorkGuard::write);
}

void UnsavedWorkGuard::startAutosave(int intervalMs)
{
    timer_.setInterval(intervalMs);
    timer_.start();
}

QString UnsavedWorkGuard::file() { return RecoveryCopy::file(); }

bool UnsavedWorkGuard::exists() const { return RecoveryCopy::exists(); }

void UnsavedWorkGuard::write()
{
    if (!window_.modified())
        return;
    try {
        RecoveryCopy::write(window_.document(), window_.path());
    } catch (const std::exception& e) {
        emit writeFailed(QString::fromUtf8(e.what()));
    }
}

void UnsavedWorkGuard::remove() { RecoveryCopy::remove(); }

void UnsavedWorkGuard::offer(QWidget* parent)
{
    if (!exists())
        return;
    const QString original = RecoveryCopy::origin();
    const auto answer
        = QMessageBox::question(parent, tr("Restore unsaved work?"),
                                tr("Kernel Workbench did not close cleanly last time. Restore the unsaved copy of %1?")
                                    .arg(original.isEmpty() ? tr("an untitled document") : original));
    if (answer == QMessageBox::Yes)
        restore();
    else
        remove();
}

bool UnsavedWorkGuard::restore()
{
    bool restored = false;
    try {
        const QString original = RecoveryCopy::origin();
        window_.load(RecoveryCopy::read(), original);
        restored = true;
    } catch (const std::exception& e) {
        emit restoreFailed(QString::fromUtf8(e.what()));
    }
    remove();
    return restored;
}

} // namespace kw
