#include "profile/ProfileView.hpp"

#include "ThemeColours.hpp"
#include "profile/AccessPicture.hpp"
#include "profile/FindingsList.hpp"
#include "profile/HeatLegend.hpp"
#include "profile/ProfileSummary.hpp"
#include "profile/ProfileTableModel.hpp"
#include "run/ProfileRatios.hpp"

#include <QComboBox>
#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace kw {

namespace {
QString spaceName(const AccessSample& s)
{
    switch (s.space) {
    case AccessSample::Space::Global: return s.store ? QObject::tr("global store") : QObject::tr("global load");
    case AccessSample::Space::Shared: return s.store ? QObject::tr("shared store") : QObject::tr("shared load");
    case AccessSample::Space::Local: return s.store ? QObject::tr("local store") : QObject::tr("local load");
    }
    return {};
}

QString dim(Dim3 d) { return QStringLiteral("(%1, %2, %3)").arg(d.x).arg(d.y).arg(d.z); }

bool touchesMemory(const ProfileCounters& c)
{
    return ProfileRatios::globalRequests(c) + ProfileRatios::sharedRequests(c) + ProfileRatios::localRequests(c)
        + c.atomic_requests
        > 0;
}

QSpinBox* spin(int maximum)
{
    auto* s = new QSpinBox;
    s->setRange(0, maximum);
    s->setAccelerated(true);
    return s;
}
} // namespace

ProfileView::ProfileView(QWidget* parent)
    : QWidget(parent)
    , metric_(new QComboBox)
    , legend_(new HeatLegend)
    , totals_(new QLabel)
    , notice_(new QFrame)
    , noticeText_(new QLabel)
    , profileButton_(new QPushButton(tr("Profile on the simulator")))
    , tabs_(new QTabWidget)
    , table_(new QTableView)
    , model_(new ProfileTableModel(this))
    , proxy_(new QSortFilterProxyModel(this))
    , findings_(new FindingsList)
    , picture_(new AccessPicture)
    , line_(new QComboBox)
    , blockX_(spin(0))
    , blockY_(spin(0))
    , blockZ_(spin(0))
    , warp_(spin(0))
    , execution_(spin(0))
    , executions_(new QLabel)
    , record_(new QPushButton(tr("Record lanes")))
    , export_(new QPushButton(tr("Export…")))
{
    for (ProfileMetric m : ProfileMetrics::all()) {
        metric_->addItem(ProfileMetrics::name(m), int(m));
        metric_->setItemData(metric_->count() - 1, ProfileMetrics::description(m), Qt::ToolTipRole);
    }
    metric_->setToolTip(tr("The counter that colours the editor margin and orders the table"));
    totals_->setWordWrap(true);
    totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    totals_->setTextFormat(Qt::RichText);

    // The notice: where counters come from, and the button that gets them.
    noticeText_->setWordWrap(true);
    auto* noticeRow = new QHBoxLayout(notice_);
    noticeRow->setContentsMargins(8, 6, 8, 6);
    noticeRow->addWidget(noticeText_, 1);
    noticeRow->addWidget(profileButton_);
    notice_->setFrameShape(QFrame::StyledPanel);
    notice_->setAutoFillBackground(true);
    tintNotice();
    notice_->hide();

    proxy_->setSourceModel(model_);
    proxy_->setSortRole(ProfileTableModel::SortRole);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(ProfileTableModel::MetricColumn, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setAlternatingRowColors(true);
    table_->setWordWrap(false);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->horizontalHeader()->setHighlightSections(false);
    table_->horizontalHeader()->setStretchLastSection(false);

    auto* findingsBox = new QWidget;
    auto* findingsLayout = new QVBoxLayout(findingsBox);
    findingsLayout->setContentsMargins(0, 0, 0, 0);
    findingsLayout->addWidget(new QLabel(tr("<b>Findings</b>")));
    findingsLayout->addWidget(findings_, 1);
    auto* lines = new QSplitter(Qt::Horizontal);
    lines->addWidget(table_);
    lines->addWidget(findingsBox);
    lines->setStretchFactor(0, 3);
    lines->setStretchFactor(1, 1);
    lines->setChildrenCollapsible(false);

    // The memory-access tab: which line, block and warp, then the picture.
    line_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    line_->setMinimumContentsLength(16);
    execution_->setMinimum(1);
    auto* chooser = new QHBoxLayout;
    chooser->addWidget(new QLabel(tr("Line:")));
    chooser->addWidget(line_, 1);
    chooser->addSpacing(8);
    chooser->addWidget(new QLabel(tr("Block:")));
    for (QSpinBox* s : {blockX_, blockY_, blockZ_})
        chooser->addWidget(s);
    chooser->addSpacing(8);
    chooser->addWidget(new QLabel(tr("Warp:")));
    chooser->addWidget(warp_);
    chooser->addSpacing(8);
    chooser->addWidget(new QLabel(tr("Execution:")));
    chooser->addWidget(execution_);
    chooser->addWidget(executions_);
    chooser->addSpacing(8);
    chooser->addWidget(record_);
    chooser->addWidget(export_);
    record_->setToolTip(tr("Run again on the simulator, recording the lanes of this warp at this line"));
    export_->setToolTip(tr("Save the picture as PNG or SVG, for slides"));
    auto* scroll = new QScrollArea;
    scroll->setWidget(picture_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* access = new QWidget;
    auto* accessLayout = new QVBoxLayout(access);
    accessLayout->setContentsMargins(4, 4, 4, 0);
    accessLayout->addLayout(chooser);
    accessLayout->addWidget(scroll, 1);

    tabs_->addTab(lines, tr("Lines"));
    tabs_->addTab(access, tr("Memory access"));
    tabs_->setDocumentMode(true);
    // The counter chooser sits beside the tabs: the totals get the whole width, and a
    // 768-pixel screen keeps a row for the table.
    auto* corner = new QWidget;
    auto* cornerLayout = new QHBoxLayout(corner);
    cornerLayout->setContentsMargins(0, 0, 4, 2);
    cornerLayout->addWidget(new QLabel(tr("Colour by:")));
    cornerLayout->addWidget(metric_);
    cornerLayout->addWidget(legend_);
    tabs_->setCornerWidget(corner, Qt::TopRightCorner);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 4);
    layout->setSpacing(2);
    layout->addWidget(totals_);
    layout->addWidget(notice_);
    layout->addWidget(tabs_, 1);

    connect(metric_, &QComboBox::currentIndexChanged, this, [this] {
        const ProfileMetric m = metric();
        model_->setMetric(m);
        legend_->setMaximum(profile_ ? ProfileMetrics::maximum(m, profile_->lines) : 0);
        table_->sortByColumn(ProfileTableModel::MetricColumn, Qt::DescendingOrder);
        emit metricChanged(m);
    });
    connect(table_, &QTableView::clicked, this, &ProfileView::activateRow);
    connect(table_, &QTableView::activated, this, &ProfileView::activateRow);
    connect(findings_, &FindingsList::lineActivated, this, &ProfileView::lineActivated);
    connect(profileButton_, &QPushButton::clicked, this, &ProfileView::requestProfile);
    connect(record_, &QPushButton::clicked, this, &ProfileView::requestProfile);
    connect(export_, &QPushButton::clicked, picture_, &AccessPicture::exportInteractive);
    connect(line_, &QComboBox::currentIndexChanged, this, &ProfileView::updatePicture);
    for (QSpinBox* s : {blockX_, blockY_, blockZ_, warp_, execution_})
        connect(s, &QSpinBox::valueChanged, this, &ProfileView::updatePicture);
    clear();
}

void ProfileView::tintNotice()
{
    QPalette np = palette();
    np.setColor(QPalette::Window, ThemeColours::tint(palette(), ThemeColours::value(palette()), 0.12));
    notice_->setPalette(np);
}

void ProfileView::changeEvent(QEvent* e)
{
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange)
        tintNotice();
}

ProfileMetric ProfileView::metric() const { return ProfileMetric(metric_->currentData().toInt()); }

void ProfileView::setMetric(ProfileMetric m) { metric_->setCurrentIndex(metric_->findData(int(m))); }

void ProfileView::clear()
{
    profile_.reset();
    requested_ = {};
    model_->clear();
    legend_->setMaximum(0);
    totals_->setText(tr("Run with <b>Run ▸ Profile per line</b> to count, per source line, what Nsight Compute "
                        "counts on a GPU, on the CPU simulator."));
    notice_->hide();
    findings_->showMessage(tr("No findings yet."));
    line_->clear();
    picture_->setMessage(tr("No profile yet."));
    updatePicture();
}

void ProfileView::setSource(const QString& text, const QString& fileName)
{
    sourceText_ = text;
    sourceName_ = fileName;
    source_ = ProfileSource(text, fileName);
    if (profile_) {
        model_->setProfile(profile_->lines, source_);
        fillLineChooser();
    }
}

void ProfileView::setLaunch(Dim3 grid, Dim3 block)
{
    grid_ = grid;
    block_ = block;
    blockX_->setMaximum(int(std::max(1u, grid.x)) - 1);
    blockY_->setMaximum(int(std::max(1u, grid.y)) - 1);
    blockZ_->setMaximum(int(std::max(1u, grid.z)) - 1);
    const std::uint64_t warps = (block.volume() + 31) / 32;
    warp_->setMaximum(int(std::max<std::uint64_t>(1, warps)) - 1);
}

void ProfileView::showNotice(const QString& text)
{
    profile_.reset();
    model_->clear();
    legend_->setMaximum(0);
    line_->clear();
    noticeText_->setText(text);
    notice_->show();
    totals_->clear();
    picture_->setMessage(tr("No profile for this run."));
    updatePicture();
}

void ProfileView::showResult(const RunResult& r, const ProfileRequest& requested)
{
    setLaunch(r.grid, r.block);
    if (r.profile) {
        showProfile(*r.profile, requested);
        return;
    }
    const QString device = QString::fromStdString(r.device.name.empty() ? r.device.id : r.device.name);
    if (r.device.id != "sim")
        showNotice(tr("This run was on %1, which is timed, not counted. The per-line counters come from the CPU "
                      "simulator, which counts what Nsight Compute counts on a GPU: instructions, memory sectors, "
                      "bank conflicts, divergent branches.")
                       .arg(device));
    else if (requested.enabled)
        showNotice(tr("The runner sent no per-line counters back for this run."));
    else
        showNotice(tr("This run was not profiled. Profiling counts, per source line, what Nsight Compute counts "
                      "on a GPU."));
    requested_ = requested;
}

void ProfileView::showProfile(const KernelProfile& profile, const ProfileRequest& requested)
{
    profile_ = profile;
    requested_ = requested;
    notice_->hide();
    model_->setProfile(profile.lines, source_);
    legend_->setMaximum(ProfileMetrics::maximum(metric(), profile.lines));
    totals_->setText(ProfileSummary::totals(profile));
    table_->sortByColumn(ProfileTableModel::MetricColumn, Qt::DescendingOrder);
    table_->setColumnHidden(ProfileTableModel::StepsColumn, !model_->hasSteps());
    table_->resizeColumnsToContents();
    // The source column shows the start of long lines; the tooltip has the counters.
    const int sourceWidth = table_->fontMetrics().horizontalAdvance(QLatin1Char('m')) * 30;
    if (table_->columnWidth(ProfileTableModel::SourceColumn) > sourceWidth)
        table_->setColumnWidth(ProfileTableModel::SourceColumn, sourceWidth);
    findings_->showMessage(tr("No findings for this run."));
    fillLineChooser();
    if (requested.capture)
        chooseCapture(requested.capture->line, requested.capture->block, requested.capture->warp);
    updatePicture();
}

void ProfileView::setFindings(const std::vector<ProfileFinding>& findings)
{
    findings_->setFindings(findings, source_);
}

void ProfileView::fillLineChooser()
{
    const QSignalBlocker quiet(line_);
    const int current = line_->currentData().toInt();
    line_->clear();
    if (!profile_)
        return;
    // Lines that touch memory are the ones with a picture; without any, every line.
    std::vector<const LineProfile*> shown;
    for (const LineProfile& l : profile_->lines)
        if (source_.isShown(l.file) && touchesMemory(l.counters))
            shown.push_back(&l);
    if (shown.empty())
        for (const LineProfile& l : profile_->lines)
            if (source_.isShown(l.file))
                shown.push_back(&l);
    for (const LineProfile* l : shown) {
        const QString text = source_.lineText(l->file, l->line);
        line_->addItem(text.isEmpty() ? tr("line %1").arg(l->line) : tr("%1: %2").arg(l->line).arg(text), l->line);
    }
    const int again = line_->findData(current);
    line_->setCurrentIndex(again >= 0 ? again : 0);
}

AccessCaptureRequest ProfileView::chosenCapture() const
{
    AccessCaptureRequest c;
    c.line = line_->currentData().toInt();
    c.block = Dim3{std::uint32_t(blockX_->value()), std::uint32_t(blockY_->value()), std::uint32_t(blockZ_->value())};
    c.warp = std::uint32_t(warp_->value());
    return c;
}

void ProfileView::chooseCapture(int line, Dim3 block, std::uint32_t warp)
{
    {
        const QSignalBlocker a(line_), b(blockX_), c(blockY_), d(blockZ_), e(warp_);
        if (const int i = line_->findData(line); i >= 0)
            line_->setCurrentIndex(i);
        blockX_->setValue(int(block.x));
        blockY_->setValue(int(block.y));
        blockZ_->setValue(int(block.z));
        warp_->setValue(int(warp));
    }
    updatePicture();
}

void ProfileView::updatePicture()
{
    const AccessCaptureRequest chosen = chosenCapture();
    const bool captured = profile_ && requested_.capture && !profile_->samples.empty()
        && requested_.capture->line == chosen.line && requested_.capture->block == chosen.block
        && requested_.capture->warp == chosen.warp;
    execution_->setEnabled(captured);
    record_->setEnabled(chosen.line > 0);
    export_->setEnabled(captured);
    if (!captured) {
        executions_->clear();
        if (profile_ && chosen.line > 0)
            picture_->setMessage(tr("The lanes of one line and warp are recorded per run. Press \"Record "
                                    "lanes\" to run again on the simulator and see how warp %1 of block %2 "
                                    "reaches memory at line %3.")
                                     .arg(chosen.warp)
                                     .arg(dim(chosen.block))
                                     .arg(chosen.line));
        else if (profile_)
            picture_->setMessage(tr("No line of this profile touches memory."));
        return;
    }
    const int n = int(profile_->samples.size());
    {
        const QSignalBlocker quiet(execution_);
        execution_->setRange(1, n);
    }
    executions_->setText(tr("of %1").arg(n));
    const AccessSample& s = profile_->samples[std::size_t(execution_->value() - 1)];
    QString title = tr("Line %1").arg(chosen.line);
    if (const QString text = source_.lineText(requested_.capture->file, chosen.line); !text.isEmpty())
        title += QStringLiteral(": ") + text;
    QString subtitle = tr("%1 (%2)  ·  block %3, warp %4")
                           .arg(spaceName(s), QString::fromStdString(s.instruction), dim(chosen.block))
                           .arg(chosen.warp);
    if (n > 1)
        subtitle += tr("  ·  execution %1 of %2").arg(execution_->value()).arg(n);
    picture_->setSample(s, title, subtitle);
}

void ProfileView::selectLine(int line)
{
    for (int row = 0; row < proxy_->rowCount(); ++row) {
        const QModelIndex index = proxy_->index(row, ProfileTableModel::LocationColumn);
        if (index.data(ProfileTableModel::LineRole).toInt() == line
            && source_.isShown(model_->line(proxy_->mapToSource(index).row()).file)) {
            table_->selectRow(row);
            table_->scrollTo(index);
            break;
        }
    }
    if (const int i = line_->findData(line); i >= 0)
        line_->setCurrentIndex(i);
}

void ProfileView::activateRow(const QModelIndex& index)
{
    if (!index.isValid())
        return;
    const QModelIndex source = proxy_->mapToSource(index);
    const LineProfile& l = model_->line(source.row());
    if (const int i = line_->findData(l.line); i >= 0)
        line_->setCurrentIndex(i);
    if (source_.isShown(l.file))
        emit lineActivated(l.line);
}

void ProfileView::requestProfile()
{
    const AccessCaptureRequest c = chosenCapture();
    emit profileRequested(c.line, c.block, c.warp);
}

} // namespace kw
