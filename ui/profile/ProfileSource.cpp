#include "profile/ProfileSource.hpp"

namespace kw {

ProfileSource::ProfileSource(const QString& text, const QString& fileName)
    : lines_(text.split(QLatin1Char('\n')))
    , fileName_(fileName)
{
}

bool ProfileSource::isShown(const std::string& file) const
{
    if (file.empty() || fileName_.isEmpty())
        return true;
    const QString f = QString::fromStdString(file);
    return f == fileName_ || f.endsWith(QLatin1Char('/') + fileName_);
}

QString ProfileSource::lineText(const std::string& file, int line) const
{
    if (!isShown(file) || line < 1 || line > lines_.size())
        return {};
    return lines_[line - 1].trimmed();
}

} // namespace kw
