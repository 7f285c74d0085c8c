#include "profile/ProfileTableModel.hpp"

#include "profile/HeatScale.hpp"
#include "profile/ProfileSummary.hpp"
#include "run/ProfileRatios.hpp"

#include <QApplication>
#include <QFileInfo>
#include <QFontDatabase>
#include <QPalette>
#include <QStringList>

#include <algorithm>
#include <limits>

namespace kw {

namespace {

// "1.1, 2": the steps that ran a line, in the order they first did.
QString stepsText(const LineProfile& l)
{
    QStringList steps;
    for (const std::string& s : l.steps)
        steps << QString::fromStdString(s);
    return steps.join(QStringLiteral(", "));
}

// Blank ratios sort below every real value, whichever way the column is sorted.
constexpr double noValue = -std::numeric_limits<double>::infinity();

QVariant orBlank(const std::optional<double>& v) { return v ? QVariant(*v) : QVariant(noValue); }

// The editor's lines by number alone; a header's with its file name.
QString location(const LineProfile& l, const ProfileSource& source)
{
    const QString file = l.file.empty() ? QString() : QFileInfo(QString::fromStdString(l.file)).fileName();
    return file.isEmpty() || source.isShown(l.file) ? QString::number(l.line)
                                                    : QStringLiteral("%1:%2").arg(file).arg(l.line);
}

QString countOrBlank(std::uint64_t v) { return v ? ProfileSummary::count(v) : QString(); }
} // namespace

ProfileTableModel::ProfileTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void ProfileTableModel::setProfile(std::vector<LineProfile> lines, ProfileSource source)
{
    beginResetModel();
    lines_ = std::move(lines);
    source_ = std::move(source);
    maximum_ = ProfileMetrics::maximum(metric_, lines_);
    endResetModel();
}

void ProfileTableModel::setMetric(ProfileMetric metric)
{
    metric_ = metric;
    maximum_ = ProfileMetrics::maximum(metric_, lines_);
    emit headerDataChanged(Qt::Horizontal, MetricColumn, MetricColumn);
    if (!lines_.empty())
        emit dataChanged(index(0, MetricColumn), index(rowCount() - 1, MetricColumn));
}

void ProfileTableModel::clear() { setProfile({}, {}); }

int ProfileTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(lines_.size()); }

int ProfileTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

bool ProfileTableModel::hasSteps() const
{
    return std::any_of(lines_.begin(), lines_.end(), [](const LineProfile& l) { return !l.steps.empty(); });
}

QVariant ProfileTableModel::display(const LineProfile& l, int column) const
{
    const ProfileCounters& c = l.counters;
    const ProfileExtras& e = l.extras;
    switch (column) {
    case LocationColumn: return location(l, source_);
    case SourceColumn: return source_.lineText(l.file, l.line);
    case MetricColumn: return ProfileSummary::count(ProfileMetrics::value(metric_, l));
    case InstructionsColumn: return ProfileSummary::count(c.inst_executed);
    case ActiveLanesColumn: return ProfileSummary::ratio(ProfileRatios::activeLanes(c));
    case GlobalRequestsColumn: return countOrBlank(ProfileRatios::globalRequests(c));
    case GlobalSectorsColumn: return countOrBlank(ProfileRatios::globalSectors(c));
    case SectorsPerRequestColumn: {
        const QString got = ProfileSummary::ratio(ProfileRatios::sectorsPerRequest(c));
        const QString ideal = ProfileSummary::ratio(ProfileRatios::idealSectorsPerRequest(c, e));
        return got.isEmpty() || ideal.isEmpty() ? got : tr("%1 (ideal %2)").arg(got, ideal);
    }
    case SharedRequestsColumn: return countOrBlank(ProfileRatios::sharedRequests(c));
    case WavefrontsColumn: return countOrBlank(ProfileRatios::sharedWavefronts(c));
    case ConflictWaysColumn: {
        const auto ways = ProfileRatios::conflictWays(c, e);
        return ways ? tr("%1-way").arg(ProfileSummary::ratio(ways)) : QString();
    }
    case BranchesColumn: return countOrBlank(e.branches);
    case DivergentColumn: return e.branches ? ProfileSummary::count(c.divergent_branches) : QString();
    case BranchEfficiencyColumn: return ProfileSummary::percent(ProfileRatios::branchEfficiency(c, e));
    case LocalColumn: return countOrBlank(ProfileRatios::localRequests(c));
    case AtomicsColumn: return countOrBlank(c.atomic_requests);
    case StepsColumn: return stepsText(l);
    }
    return {};
}

QVariant ProfileTableModel::sortValue(const LineProfile& l, int column) const
{
    const ProfileCounters& c = l.counters;
    const ProfileExtras& e = l.extras;
    switch (column) {
    case LocationColumn:
        // By file, then by line number (not "k.cu:10" before "k.cu:9").
        return QStringLiteral("%1:%2").arg(QString::fromStdString(l.file)).arg(l.line, 9, 10, QLatin1Char('0'));
    case SourceColumn: return source_.lineText(l.file, l.line);
    case MetricColumn: return qulonglong(ProfileMetrics::value(metric_, l));
    case InstructionsColumn: return qulonglong(c.inst_executed);
    case ActiveLanesColumn: return orBlank(ProfileRatios::activeLanes(c));
    case GlobalRequestsColumn: return qulonglong(ProfileRatios::globalRequests(c));
    case GlobalSectorsColumn: return qulonglong(ProfileRatios::globalSectors(c));
    case SectorsPerRequestColumn: return orBlank(ProfileRatios::sectorsPerRequest(c));
    case SharedRequestsColumn: return qulonglong(ProfileRatios::sharedRequests(c));
    case WavefrontsColumn: return qulonglong(ProfileRatios::sharedWavefronts(c));
    case ConflictWaysColumn: return orBlank(ProfileRatios::conflictWays(c, e));
    case BranchesColumn: return qulonglong(e.branches);
    case DivergentColumn: return qulonglong(c.divergent_branches);
    case BranchEfficiencyColumn: return orBlank(ProfileRatios::branchEfficiency(c, e));
    case LocalColumn: return qulonglong(ProfileRatios::localRequests(c));
    case AtomicsColumn: return qulonglong(c.atomic_requests);
    case StepsColumn: return stepsText(l);
    }
    return {};
}

QVariant ProfileTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const LineProfile& l = lines_[std::size_t(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole: return display(l, column);
    case SortRole: return sortValue(l, column);
    case LineRole: return l.line;
    case Qt::ToolTipRole:
        return column == SourceColumn && !source_.lineText(l.file, l.line).isEmpty()
            ? source_.lineText(l.file, l.line).toHtmlEscaped() + QStringLiteral("<hr>") + ProfileSummary::lineTooltip(l)
            : ProfileSummary::lineTooltip(l);
    case Qt::TextAlignmentRole:
        return column <= SourceColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                      : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        if (column == SourceColumn)
            return QFontDatabase::systemFont(QFontDatabase::FixedFont);
        return {};
    case Qt::BackgroundRole:
        if (column == MetricColumn)
            if (const QColor c
                = HeatScale::colour(ProfileMetrics::value(metric_, l), maximum_, QApplication::palette());
                c.isValid())
                return c;
        return {};
    case Qt::ForegroundRole:
        if (column == MetricColumn)
            if (const QColor c
                = HeatScale::colour(ProfileMetrics::value(metric_, l), maximum_, QApplication::palette());
                c.isValid())
                return HeatScale::textOn(c);
        return {};
    }
    return {};
}

QVariant ProfileTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case MetricColumn: return ProfileMetrics::description(metric_);
        case ActiveLanesColumn:
            return tr("Active lanes per warp instruction, of 32 (thread_inst_executed / inst_executed).");
        case SectorsPerRequestColumn:
            return tr("32-byte sectors per global request, and the fewest the bytes asked for could fit.");
        case WavefrontsColumn: return tr("Passes through the 32 shared memory banks.");
        case ConflictWaysColumn:
            return tr("Shared wavefronts per wavefront the requests needed at least: 1-way is no bank conflict.");
        case BranchEfficiencyColumn:
            return tr("Branches whose lanes all went the same way (1 - divergent / branches).");
        case LocalColumn: return tr("Local memory requests: register spills and arrays on the stack.");
        case StepsColumn:
            return tr("The steps whose launches ran this line, in the order they first did; the counters are "
                      "their sum (kwb-run run --profile lists each step's own).");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case LocationColumn: return tr("Line");
    case SourceColumn: return tr("Source");
    case MetricColumn: return ProfileMetrics::name(metric_);
    case InstructionsColumn: return tr("Instructions");
    case ActiveLanesColumn: return tr("Lanes");
    case GlobalRequestsColumn: return tr("Global req.");
    case GlobalSectorsColumn: return tr("Sectors");
    case SectorsPerRequestColumn: return tr("Sectors/req.");
    case SharedRequestsColumn: return tr("Shared req.");
    case WavefrontsColumn: return tr("Wavefronts");
    case ConflictWaysColumn: return tr("Conflict");
    case BranchesColumn: return tr("Branches");
    case DivergentColumn: return tr("Divergent");
    case BranchEfficiencyColumn: return tr("Branch eff.");
    case LocalColumn: return tr("Local");
    case AtomicsColumn: return tr("Atomics");
    case StepsColumn: return tr("Steps");
    }
    return {};
}

} // namespace kw
