#include "profile/ProfileSummary.hpp"

#include "run/ProfileRatios.hpp"

#include <QLocale>
#include <QObject>
#include <QStringList>

#include <cmath>

namespace kw {

namespace {
QString tr(const char* text, const char* disambiguation = nullptr, int n = -1)
{
    return QObject::tr(text, disambiguation, n);
}

// "1,024 sectors (4.0 per request, ideal 4.0)"
QString sectorsText(std::uint64_t requests, std::uint64_t sectors, std::uint64_t ideal)
{
    QString s = tr("%1 requests, %2 sectors").arg(ProfileSummary::count(requests), ProfileSummary::count(sectors));
    if (requests > 0) {
        s += tr(" (%1 per request").arg(ProfileSummary::ratio(double(sectors) / double(requests)));
        if (ideal > 0)
            s += tr(", ideal %1").arg(ProfileSummary::ratio(double(ideal) / double(requests)));
        s += ')';
    }
    return s;
}
} // namespace

QString ProfileSummary::count(std::uint64_t value) { return QLocale().toString(qulonglong(value)); }

QString ProfileSummary::compact(std::uint64_t value)
{
    if (value < 10000)
        return QString::number(value);
    static const char* suffix[] = {"k", "M", "G", "T", "P", "E"};
    double v = double(value);
    int i = -1;
    while (v >= 999.5 && i < 5) {
        v /= 1000.0;
        ++i;
    }
    return (v < 9.95 ? QString::number(v, 'f', 1) : QString::number(std::lround(v))) + suffix[i];
}

QString ProfileSummary::ratio(const std::optional<double>& value, int decimals)
{
    return value ? QString::number(*value, 'f', decimals) : QString();
}

QString ProfileSummary::percent(const std::optional<double>& share)
{
    if (!share)
        return {};
    // 99.94 % is not 100 %: a few divergent branches must not round away.
    const double pc = *share * 100.0;
    const bool whole = std::abs(pc - std::round(pc)) < 1e-9 || (pc > 0.5 && pc < 99.5);
    return QStringLiteral("%1 %").arg(whole ? QString::number(std::lround(pc)) : QString::number(pc, 'f', 1));
}

QString ProfileSummary::totals(const KernelProfile& p)
{
    const ProfileCounters& c = p.totals;
    const ProfileExtras& e = p.totalExtras;
    QStringList parts;
    QString inst = tr("<b>%1 warp instructions</b>").arg(count(c.inst_executed));
    if (auto lanes = ProfileRatios::activeLanes(c))
        inst += tr(", %1 of 32 lanes active on average").arg(ratio(lanes));
    parts << inst;
    if (ProfileRatios::globalRequests(c) > 0)
        parts << tr("<b>global</b> ")
                + sectorsText(ProfileRatios::globalRequests(c), ProfileRatios::globalSectors(c),
                              e.global_ld_ideal_sectors + e.global_st_ideal_sectors);
    if (ProfileRatios::sharedRequests(c) > 0) {
        QString s = tr("<b>shared</b> %1 requests, %2 wavefronts")
                        .arg(count(ProfileRatios::sharedRequests(c)), count(ProfileRatios::sharedWavefronts(c)));
        if (auto ways = ProfileRatios::conflictWays(c, e); ways && *ways > 1.005)
            s += tr(" (%1 per request needed: bank conflicts)").arg(ratio(ways));
        else
            s += tr(" (no bank conflicts)");
        parts << s;
    }
    if (e.branches > 0)
        parts << tr("<b>branches</b> %1, %2 divergent (%3 efficient)")
                     .arg(count(e.branches), count(c.divergent_branches),
                          percent(ProfileRatios::branchEfficiency(c, e)));
    if (const std::uint64_t local = ProfileRatios::localRequests(c))
        parts << tr("<b>local memory</b> %1 requests").arg(count(local));
    if (c.atomic_requests > 0)
        parts << tr("<b>atomics</b> %1").arg(count(c.atomic_requests));
    return parts.join(QStringLiteral(" &nbsp;·&nbsp; "));
}

QString ProfileSummary::lineTooltip(const LineProfile& l)
{
    const ProfileCounters& c = l.counters;
    const ProfileExtras& e = l.extras;
    QString rows;
    auto row = [&rows](const QString& name, const QString& value) {
        rows += QStringLiteral("<tr><td>%1</td><td align=right>&nbsp;%2</td></tr>").arg(name, value);
    };
    row(tr("Warp instructions"), count(c.inst_executed));
    if (auto lanes = ProfileRatios::activeLanes(c))
        row(tr("Active lanes"), tr("%1 of 32").arg(ratio(lanes)));
    if (c.global_ld_requests > 0)
        row(tr("Global loads"), sectorsText(c.global_ld_requests, c.global_ld_sectors, e.global_ld_ideal_sectors));
    if (c.global_st_requests > 0)
        row(tr("Global stores"), sectorsText(c.global_st_requests, c.global_st_sectors, e.global_st_ideal_sectors));
    if (e.global_stride_bytes > 0)
        row(tr("Stride between lanes"), tr("%1 bytes").arg(e.global_stride_bytes));
    if (c.shared_ld_requests > 0)
        row(tr("Shared loads"),
            tr("%1 requests, %2 wavefronts").arg(count(c.shared_ld_requests), count(c.shared_ld_wavefronts)));
    if (c.shared_st_requests > 0)
        row(tr("Shared stores"),
            tr("%1 requests, %2 wavefronts").arg(count(c.shared_st_requests), count(c.shared_st_wavefronts)));
    if (e.worst_bank_conflict > 1)
        row(tr("Worst bank conflict"), tr("%1-way").arg(e.worst_bank_conflict));
    if (e.branches > 0)
        row(tr("Branches"),
            tr("%1, %2 divergent (%3 efficient)")
                .arg(count(e.branches), count(c.divergent_branches), percent(ProfileRatios::branchEfficiency(c, e))));
    if (c.local_ld_requests + c.local_st_requests > 0)
        row(tr("Local loads, stores"), tr("%1, %2").arg(count(c.local_ld_requests), count(c.local_st_requests)));
    if (c.atomic_requests > 0)
        row(tr("Atomics"), count(c.atomic_requests));
    const QString where = l.file.empty() ? tr("line %1").arg(l.line)
                                         : QStringLiteral("%1:%2").arg(QString::fromStdString(l.file)).arg(l.line);
    return QStringLiteral("<b>%1</b><table cellspacing=0>%2</table>").arg(where.toHtmlEscaped(), rows);
}

} // namespace kw
