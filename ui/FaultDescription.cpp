#include "FaultDescription.hpp"

#include <QFileInfo>

namespace kw {

namespace {
QString dim(Dim3 d) { return QString("(%1, %2, %3)").arg(d.x).arg(d.y).arg(d.z); }
} // namespace

FaultDescription::FaultDescription(const Fault& f, const std::string& compiledName, const QString& sourceLabel)
{
    QString message = QString::fromStdString(f.message);
    const QString file = QString::fromStdString(f.file);
    if (f.line > 0) {
        // The PTX names the file as NVRTC saw it: the working folder plus the compiled name.
        const bool ours = file.isEmpty() || QFileInfo(file).fileName() == QString::fromStdString(compiledName);
        if (ours) {
            sourceLine_ = f.line;
            location_ = QObject::tr("line %1 of %2").arg(f.line).arg(sourceLabel);
        } else {
            location_ = QObject::tr("%1, line %2").arg(file).arg(f.line);
        }
        // The message carries its own " at file:line"; the location replaces it.
        const QString suffix = QString(" at %1:%2").arg(file).arg(f.line);
        if (message.endsWith(suffix))
            message.chop(suffix.size());
    }
    detail_ = message;
    // Block and thread once: the simulator's message already names them.
    if (f.block && f.thread && !message.contains("block ("))
        detail_ += QObject::tr("\nblock %1, thread %2").arg(dim(*f.block), dim(*f.thread));
    if (!location_.isEmpty())
        detail_ += QObject::tr("\nat %1").arg(location_);
}

} // namespace kw
