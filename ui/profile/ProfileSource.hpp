#pragma once
// The source a profile's lines point into: the editor's text under the name the
// compiler gave it. -lineinfo names a file as the compiler saw it ("kernel.cu", or a
// path), so a line belongs to the editor when its file is that name, ends with it
// after a '/', or is empty; lines of included headers do not.
#include <QString>
#include <QStringList>

#include <string>

namespace kw {

class ProfileSource {
public:
    ProfileSource() = default;
    ProfileSource(const QString& text, const QString& fileName);

    const QString& fileName() const { return fileName_; }
    bool isShown(const std::string& file) const;
    // The line's text without its indentation; empty for another file or no such line.
    QString lineText(const std::string& file, int line) const;

private:
    QStringList lines_;
    QString fileName_;
};

} // namespace kw
