#pragma once
// A profile's lines as a table: where, the source text, the chosen counter (coloured
// as the editor margin colours it), the counters and the ratios derived from them.
// Numbers sort as numbers (SortRole); a cell without a ratio sorts below every value.
#include "launch/KernelProfile.hpp"
#include "profile/ProfileMetric.hpp"
#include "profile/ProfileSource.hpp"

#include <QAbstractTableModel>

#include <vector>

namespace kw {

class ProfileTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        LocationColumn,
        SourceColumn,
        MetricColumn,
        InstructionsColumn,
        ActiveLanesColumn,
        GlobalRequestsColumn,
        GlobalSectorsColumn,
        SectorsPerRequestColumn,
        SharedRequestsColumn,
        WavefrontsColumn,
        ConflictWaysColumn,
        BranchesColumn,
        DivergentColumn,
        BranchEfficiencyColumn,
        LocalColumn,
        AtomicsColumn,
        StepsColumn, // a document of steps: the steps whose launches ran the line
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int LineRole = Qt::UserRole + 2; // the source line, 1-based

    explicit ProfileTableModel(QObject* parent = nullptr);

    void setProfile(std::vector<LineProfile> lines, ProfileSource source);
    void setMetric(ProfileMetric metric);
    ProfileMetric metric() const { return metric_; }
    void clear();
    const LineProfile& line(int row) const { return lines_[std::size_t(row)]; }
    const ProfileSource& source() const { return source_; }
    // Whether any line names the steps that ran it (a document of several launches).
    bool hasSteps() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const LineProfile& l, int column) const;
    QVariant sortValue(const LineProfile& l, int column) const;

    std::vector<LineProfile> lines_;
    ProfileSource source_;
    ProfileMetric metric_ = ProfileMetric::Cost;
    std::uint64_t maximum_ = 0; // of the metric over the lines
};

} // namespace kw
