#include "views/PrintfFilterProxy.hpp"

#include "views/PrintfTableModel.hpp"

#include <QRegularExpression>

namespace kw {

PrintfFilterProxy::PrintfFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(PrintfTableModel::SortRole);
}

std::optional<PrintfFilterProxy::DimFilter> PrintfFilterProxy::parseDimFilter(const QString& text)
{
    QString t = text.trimmed();
    if (t.startsWith('(') && t.endsWith(')'))
        t = t.mid(1, t.size() - 2);
    DimFilter f{};
    if (t.trimmed().isEmpty())
        return f;
    static const QRegularExpression sep(QStringLiteral("\\s*[,\\s]\\s*"));
    const QStringList parts = t.trimmed().split(sep);
    if (parts.size() > 3)
        return std::nullopt;
    for (int i = 0; i < parts.size(); ++i) {
        if (parts[i] == QLatin1String("*"))
            continue;
        bool ok = false;
        const uint v = parts[i].toUInt(&ok);
        if (!ok)
            return std::nullopt;
        f[std::size_t(i)] = v;
    }
    return f;
}

bool PrintfFilterProxy::matches(const DimFilter& f, const Dim3& d)
{
    return (!f[0] || *f[0] == d.x) && (!f[1] || *f[1] == d.y) && (!f[2] || *f[2] == d.z);
}

bool PrintfFilterProxy::setBlockFilter(const QString& text)
{
    const auto f = parseDimFilter(text);
    block_ = f.value_or(DimFilter{});
    invalidateFilter();
    return f.has_value();
}

bool PrintfFilterProxy::setThreadFilter(const QString& text)
{
    const auto f = parseDimFilter(text);
    thread_ = f.value_or(DimFilter{});
    invalidateFilter();
    return f.has_value();
}

void PrintfFilterProxy::setTextFilter(const QString& text)
{
    text_ = text;
    invalidateFilter();
}

bool PrintfFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex&) const
{
    const auto* model = static_cast<const PrintfTableModel*>(sourceModel());
    const PrintfLine& l = model->line(sourceRow);
    if (!matches(block_, l.block) || !matches(thread_, l.thread))
        return false;
    return text_.isEmpty() || QString::fromStdString(l.text).contains(text_, Qt::CaseInsensitive);
}

} // namespace kw
