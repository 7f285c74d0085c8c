#pragma once
// Filters a PrintfTableModel by block, thread and text. A block or thread filter is
// "x", "x,y" or "x,y,z" (parentheses and spaces allowed, "*" matches any value);
// only the given components must match. Text is a case-insensitive substring.
#include "launch/LaunchTypes.hpp"

#include <QSortFilterProxyModel>

#include <array>
#include <optional>

namespace kw {

class PrintfFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    // Each component: the value it must have, or nothing for "any".
    using DimFilter = std::array<std::optional<std::uint32_t>, 3>;
    static std::optional<DimFilter> parseDimFilter(const QString& text);
    static bool matches(const DimFilter& f, const Dim3& d);

    explicit PrintfFilterProxy(QObject* parent = nullptr);

    // Return false (and leave that filter off) when the text is not a valid filter.
    bool setBlockFilter(const QString& text);
    bool setThreadFilter(const QString& text);
    void setTextFilter(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    DimFilter block_{}, thread_{};
    QString text_;
};

} // namespace kw
